import { InvalidTransitionError, ValidationFailedError } from '@almanac/shared/domain';
import {
  canTransition,
} from '@almanac/shared/domain';
import { effectiveStatus, POST_STATUSES, POST_TRANSITIONS, PostStatus, PublicationDateError, resolvePublication } from './post-status';

const now = new Date('2026-11-21T10:00:00.000Z');
const past = new Date('2026-11-01T00:00:00.000Z');
const future = new Date('2026-12-01T00:00:00.000Z');

describe('post status', () => {
  const pairs = POST_STATUSES.flatMap((from) => POST_STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('allows %s → %s (any move; dates decide)', (from, to) => {
    expect(from === to || canTransition(POST_TRANSITIONS, from, to)).toBe(true);
  });

  it.each<[PostStatus, Date | null, PostStatus]>([
    ['scheduled', past, 'published'],
    ['scheduled', now, 'published'],
    ['scheduled', future, 'scheduled'],
    ['draft', past, 'draft'],
    ['archived', past, 'archived'],
    ['published', future, 'published'],
  ])('reads %s dated %s as %s', (status, date, expected) => {
    expect(effectiveStatus(status, date, now)).toBe(expected);
  });

  describe('resolvePublication', () => {
    type Case = [string, { status: PostStatus; publishedAt: Date | null } | undefined, { status?: PostStatus; publishedAt?: Date | null }, PostStatus, Date | null];
    const cases: Case[] = [
      ['create with nothing: a draft without date', undefined, {}, 'draft', null],
      ['create a dated draft', undefined, { publishedAt: past }, 'draft', past],
      ['create published without a date: now', undefined, { status: 'published' }, 'published', now],
      ['create published with a date: that date', undefined, { status: 'published', publishedAt: past }, 'published', past],
      ['create scheduled in the future', undefined, { status: 'scheduled', publishedAt: future }, 'scheduled', future],
      ['create archived', undefined, { status: 'archived' }, 'archived', null],
      ['draft → published stamps now', { status: 'draft', publishedAt: null }, { status: 'published' }, 'published', now],
      ['dated draft → published keeps its date', { status: 'draft', publishedAt: past }, { status: 'published' }, 'published', past],
      ['published → draft keeps the date', { status: 'published', publishedAt: past }, { status: 'draft' }, 'draft', past],
      ['published → archived keeps the date', { status: 'published', publishedAt: past }, { status: 'archived' }, 'archived', past],
      ['archived → published keeps the date', { status: 'archived', publishedAt: past }, { status: 'published' }, 'published', past],
      ['scheduled → published ahead of time: now', { status: 'scheduled', publishedAt: future }, { status: 'published' }, 'published', now],
      ['scheduled → published with a date: that date', { status: 'scheduled', publishedAt: future }, { status: 'published', publishedAt: past }, 'published', past],
      ['scheduled → draft keeps the plan', { status: 'scheduled', publishedAt: future }, { status: 'draft' }, 'draft', future],
      ['overdue scheduled, untouched: published on its date', { status: 'scheduled', publishedAt: past }, {}, 'published', past],
      ['overdue scheduled → published: its date', { status: 'scheduled', publishedAt: past }, { status: 'published' }, 'published', past],
      ['published, date cleared: now', { status: 'published', publishedAt: past }, { publishedAt: null }, 'published', now],
      ['draft, date cleared', { status: 'draft', publishedAt: past }, { publishedAt: null }, 'draft', null],
      ['reschedule', { status: 'scheduled', publishedAt: future }, { publishedAt: new Date('2027-01-01T00:00:00Z') }, 'scheduled', new Date('2027-01-01T00:00:00Z')],
    ];

    it.each(cases)('%s', (_name, current, requested, status, publishedAt) => {
      expect(resolvePublication(current, requested, now)).toEqual({ status, publishedAt });
    });

    it.each<[string, { status: PostStatus; publishedAt: Date | null } | undefined, { status?: PostStatus; publishedAt?: Date | null }, string]>([
      ['scheduled without a date', undefined, { status: 'scheduled' }, 'is required when status is scheduled'],
      ['scheduled in the past', undefined, { status: 'scheduled', publishedAt: past }, 'must be in the future when status is scheduled'],
      ['scheduled exactly now', undefined, { status: 'scheduled', publishedAt: now }, 'must be in the future when status is scheduled'],
      ['draft → scheduled keeping a past date', { status: 'draft', publishedAt: past }, { status: 'scheduled' }, 'must be in the future when status is scheduled'],
      ['overdue scheduled → scheduled again', { status: 'scheduled', publishedAt: past }, { status: 'scheduled' }, 'must be in the future when status is scheduled'],
      ['scheduled losing its date', { status: 'scheduled', publishedAt: future }, { publishedAt: null }, 'is required when status is scheduled'],
    ])('refuses %s (400 on published_at)', (_name, current, requested, message) => {
      let thrown: unknown;
      try {
        resolvePublication(current, requested, now);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(PublicationDateError);
      expect((thrown as ValidationFailedError).code).toBe('validation_failed');
      expect((thrown as ValidationFailedError).errors).toEqual([{ field: 'published_at', message }]);
    });

    it('would refuse a move the table forbids', () => {
      const narrowed = { ...POST_TRANSITIONS, archived: [] };
      expect(canTransition(narrowed, 'archived', 'draft')).toBe(false);
      expect(new InvalidTransitionError('post', 'archived', 'draft').code).toBe('invalid_transition');
    });
  });
});
