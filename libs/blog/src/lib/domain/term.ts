/** A category or a tag: the same shape, counted by the published posts that carry it. */
export interface TermView {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly postCount: number;
}

export type TermKindName = 'category' | 'tag';
