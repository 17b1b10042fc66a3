import type { DomainEvent } from '@almanac/shared/domain';
import { PostView, representPost } from './post';
import type { PostStatus } from './post-status';

/*
 * What the blog announces through the outbox, built in this one place: each event's `data` is the
 * post as its single GET shows it (the same representation as the API's answers).
 */

/**
 * What a create (`before` null) or an update announces: `post.created` or `post.updated`, and
 * `post.published` when the post becomes published by it.
 */
export function postChanged(before: PostStatus | null, after: PostView, occurredAt: Date): DomainEvent[] {
  const data = representPost(after);
  const organizationId = after.organizationId;
  const events: DomainEvent[] = [{ type: before === null ? 'post.created' : 'post.updated', organizationId, data, occurredAt }];
  if (after.status === 'published' && before !== 'published') events.push(postPublished(after, occurredAt));
  return events;
}

/** A scheduled post whose time came, or a post a change published. */
export function postPublished(post: PostView, occurredAt: Date): DomainEvent {
  return { type: 'post.published', organizationId: post.organizationId, data: representPost(post), occurredAt };
}

export function postDeleted(organizationId: string, id: string, occurredAt: Date): DomainEvent {
  return { type: 'post.deleted', organizationId, data: { id, deleted: true }, occurredAt };
}
