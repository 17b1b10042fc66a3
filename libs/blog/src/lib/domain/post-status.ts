import { DomainError, InvalidTransitionError, TransitionTable, canTransition } from '@almanac/shared/domain';

export const POST_STATUSES = ['draft', 'published', 'scheduled', 'archived'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * Where a post's status may move. Every move is allowed
 * (an author may unpublish, archive, restore or reschedule at will). What constrains a post is not
 * the move but its publication date: see `resolvePublication`.
 */
export const POST_TRANSITIONS: TransitionTable<PostStatus> = {
  draft: ['published', 'scheduled', 'archived'],
  published: ['draft', 'scheduled', 'archived'],
  scheduled: ['draft', 'published', 'archived'],
  archived: ['draft', 'published', 'scheduled'],
};

/** A scheduled post whose time has come reads as published, before the publisher has flipped it. */
export function effectiveStatus(status: PostStatus, publishedAt: Date | null, now: Date): PostStatus {
  return status === 'scheduled' && publishedAt !== null && publishedAt.getTime() <= now.getTime() ? 'published' : status;
}

export class PublicationDateError extends DomainError {
  constructor(message: string) {
    super('validation_failed', 'The request is invalid.', [{ field: 'published_at', message }]);
  }
}

export interface Publication {
  readonly status: PostStatus;
  readonly publishedAt: Date | null;
}

/**
 * The status and publication date a post ends up with (docs/contract/blog.md).
 *
 * - `current` is the stored state (absent on create); an overdue scheduled post counts as published.
 * - `status` / `publishedAt` are what the request asked for (`undefined`: not mentioned; `null`
 *   publication date: cleared).
 *
 * Rules: `scheduled` needs a publication date strictly in the future; becoming (or staying)
 * `published` without a date sets it to now, and so does publishing a scheduled post ahead of its
 * time (the plan is superseded) unless a date is given; otherwise the date is kept as given, also on
 * drafts and archived posts (so re-publishing keeps the original date), and a draft given none keeps
 * none.
 */
export function resolvePublication(
  current: Publication | undefined,
  requested: { status?: PostStatus; publishedAt?: Date | null },
  now: Date,
): Publication {
  const from = current ? effectiveStatus(current.status, current.publishedAt, now) : undefined;
  const status = requested.status ?? from ?? 'draft';
  if (from !== undefined && from !== status && !canTransition(POST_TRANSITIONS, from, status)) {
    // Unreachable with the table above; kept so that narrowing the table is a one-line change.
    throw new InvalidTransitionError('post', from, status);
  }
  let publishedAt = requested.publishedAt !== undefined ? requested.publishedAt : (current?.publishedAt ?? null);
  if (status === 'scheduled') {
    if (publishedAt === null) throw new PublicationDateError('is required when status is scheduled');
    if (publishedAt.getTime() <= now.getTime()) throw new PublicationDateError('must be in the future when status is scheduled');
  }
  if (status === 'published' && (publishedAt === null || (from === 'scheduled' && requested.publishedAt === undefined))) {
    publishedAt = now;
  }
  return { status, publishedAt };
}
