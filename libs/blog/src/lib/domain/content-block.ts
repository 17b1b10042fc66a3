/** The elements of a post's `content` array, as stored and returned. */
export const CONTENT_BLOCK_TYPES = ['heading', 'paragraph', 'image', 'list', 'quote'] as const;
export type ContentBlockType = (typeof CONTENT_BLOCK_TYPES)[number];

export interface HeadingBlock {
  type: 'heading';
  level: number;
  text: string;
}
export interface ParagraphBlock {
  type: 'paragraph';
  text: string;
}
export interface ImageBlock {
  type: 'image';
  url: string;
  alt: string;
}
export interface ListBlock {
  type: 'list';
  items: string[];
}
export interface QuoteBlock {
  type: 'quote';
  text: string;
  author?: string;
}
export type ContentBlock = HeadingBlock | ParagraphBlock | ImageBlock | ListBlock | QuoteBlock;

export const MAX_CONTENT_BLOCKS = 500;
export const MAX_LIST_ITEMS = 1000;
export const MIN_HEADING_LEVEL = 1;
export const MAX_HEADING_LEVEL = 6;

