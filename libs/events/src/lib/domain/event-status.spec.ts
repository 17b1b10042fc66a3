import { InvalidTransitionError } from '@almanac/shared/domain';
import { EVENT_STATUSES, EventStatus, nextEventStatus } from './event-status';

const ALLOWED: Record<EventStatus, Record<EventStatus, boolean>> = {
  draft: { draft: true, published: true, cancelled: true },
  published: { draft: true, published: true, cancelled: true },
  cancelled: { draft: false, published: false, cancelled: true },
};

describe('event status transitions', () => {
  const pairs = EVENT_STATUSES.flatMap((from) => EVENT_STATUSES.map((to) => [from, to, ALLOWED[from][to]] as const));

  it('covers every pair of states', () => {
    expect(pairs).toHaveLength(9);
  });

  it.each(pairs)('%s → %s allowed: %s', (from, to, allowed) => {
    if (allowed) {
      expect(nextEventStatus(from, to)).toBe(to);
    } else {
      expect(() => nextEventStatus(from, to)).toThrow(InvalidTransitionError);
      try {
        nextEventStatus(from, to);
      } catch (error) {
        expect((error as InvalidTransitionError).code).toBe('invalid_transition');
      }
    }
  });
});
