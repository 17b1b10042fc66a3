import type { ContentBlock } from './content-block';
import type { PostStatus } from './post-status';

/** The newest revisions of a post that are kept; a write that adds one removes what falls past it. */
export const MAX_REVISIONS_PER_POST = 100;

/** A post's fields as one write left them (the stored status, not the effective one). */
export interface PostRevision {
  readonly id: string;
  readonly postId: string;
  readonly createdAt: Date;
  readonly title: string;
  readonly slug: string;
  readonly excerpt: string | null;
  readonly status: PostStatus;
  readonly featuredImageUrl: string | null;
  readonly categoryId: string | null;
  readonly tagIds: readonly string[];
  /** Present on single reads, absent from lists. */
  readonly content?: readonly ContentBlock[];
}

/** A post to record a revision of, after the write that changed it (in that write's transaction). */
export interface RevisionTarget {
  readonly organizationId: string;
  readonly postId: string;
  /** The new revision's id. */
  readonly id: string;
}
