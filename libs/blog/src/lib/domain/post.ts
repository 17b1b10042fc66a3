import { field, recordFields } from '@almanac/shared/domain';
import type { ContentBlock } from './content-block';
import type { PostStatus } from './post-status';

export const POST_ORDER_FIELDS = ['published_at', 'created_at', 'updated_at', 'title'] as const;
export type PostOrderField = (typeof POST_ORDER_FIELDS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export interface TermRef {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
}

export interface AuthorRef {
  readonly id: string;
  readonly name: string;
}

/**
 * A post as read back: status already effective (an overdue scheduled post reads as published), with
 * its category, author and tags as they are now.
 */
export interface PostView {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly slug: string;
  readonly excerpt: string | null;
  readonly featuredImageUrl: string | null;
  readonly status: PostStatus;
  readonly isFeatured: boolean;
  readonly publishedAt: Date | null;
  readonly categoryId: string | null;
  readonly category: TermRef | null;
  readonly authorId: string | null;
  readonly author: AuthorRef | null;
  readonly tags: readonly TermRef[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Present on single reads, absent from lists. */
  readonly content?: readonly ContentBlock[];
}

/** Every field of a post, in the order its representation lists them (lists leave the content out). */
export const POST_FIELDS = recordFields<PostView>()({
  id: field.value,
  organizationId: field.hidden(field.value),
  title: field.value,
  slug: field.value,
  excerpt: field.value,
  featuredImageUrl: field.value,
  status: field.value,
  isFeatured: field.value,
  publishedAt: field.instant,
  categoryId: field.hidden(field.value),
  category: field.value,
  authorId: field.hidden(field.value),
  author: field.value,
  tags: field.value,
  createdAt: field.instant,
  updatedAt: field.instant,
  content: field.json,
});

/** A post as its single GET shows it: every shown field, and its content (an empty list when it has none). */
export function representPost(view: PostView) {
  return { ...POST_FIELDS.represent(view), content: view.content ?? [] };
}

/** What a post is made of as stored: its category, author and tags are read with it, by their ids. */
export type StoredPost = Omit<PostView, 'category' | 'author' | 'tags'>;

/** What a client sets on a post (create: title and slug required; PATCH: any of them), and its tags. */
export type PostInput = Pick<PostView, 'title' | 'slug'> &
  Partial<Omit<StoredPost, 'id' | 'organizationId' | 'createdAt' | 'updatedAt' | 'title' | 'slug'>> & {
    readonly tagIds?: readonly string[];
  };

/**
 * A new post: no excerpt, image, category or content unless given, not featured; its publication
 * (status and date) as decided by `resolvePublication`.
 */
export function newPost(
  identity: { id: string; organizationId: string; authorId: string | null },
  input: PostInput,
  publication: Pick<PostView, 'status' | 'publishedAt'>,
  now: Date,
): StoredPost {
  return {
    ...identity,
    title: input.title,
    slug: input.slug,
    excerpt: input.excerpt ?? null,
    featuredImageUrl: input.featuredImageUrl ?? null,
    status: publication.status,
    isFeatured: input.isFeatured ?? false,
    publishedAt: publication.publishedAt,
    categoryId: input.categoryId ?? null,
    createdAt: now,
    updatedAt: now,
    content: input.content ?? [],
  };
}

/** The list filters of `GET /posts`; all of them AND together. */
export interface PostListCriteria {
  readonly organizationId: string;
  readonly status?: PostStatus;
  readonly categoryId?: string;
  readonly categorySlug?: string;
  readonly tagId?: string;
  readonly tagSlug?: string;
  readonly authorId?: string;
  /** true: featured posts only; false or absent: no filter. */
  readonly featuredOnly?: boolean;
  readonly search?: string;
  /** Absent: relevance when searching, else published_at. */
  readonly orderBy?: PostOrderField;
  readonly order: SortDirection;
  readonly limit: number;
  readonly offset: number;
  /** Overdue scheduled posts count as published against this instant. */
  readonly now: Date;
}
