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

/** A post as read back: status already effective (an overdue scheduled post reads as published). */
export interface PostView {
  readonly id: string;
  readonly title: string;
  readonly slug: string;
  readonly excerpt: string | null;
  readonly featuredImageUrl: string | null;
  readonly status: PostStatus;
  readonly isFeatured: boolean;
  readonly publishedAt: Date | null;
  readonly category: TermRef | null;
  readonly author: AuthorRef | null;
  readonly tags: readonly TermRef[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Present on single reads, absent from lists. */
  readonly content?: readonly ContentBlock[];
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
