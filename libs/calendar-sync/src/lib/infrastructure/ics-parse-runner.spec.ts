import { IMPORTED_TEXT_LIMITS } from '@almanac/scheduling';
import { FIXTURE_RANGE, readFixture } from '../../testing/fixtures';
import { FeedParseError } from './ics-parser';
import { PARSE_QUEUE_MAX, parseIcsFeedOffThread } from './ics-parse-runner';

describe('parseIcsFeedOffThread', () => {
  it('lets at most PARSE_QUEUE_MAX feeds wait for a parsing thread and refuses the rest at once', async () => {
    const feed = readFixture('google');
    const extra = 8;
    // All asked for in the same tick: none has started yet, so every one of them has to wait.
    const outcomes = await Promise.allSettled(Array.from({ length: PARSE_QUEUE_MAX + extra }, () => parseIcsFeedOffThread(feed, FIXTURE_RANGE.start, FIXTURE_RANGE.end, IMPORTED_TEXT_LIMITS)));
    const parsed = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(parsed).toHaveLength(PARSE_QUEUE_MAX);
    expect(refused).toHaveLength(extra);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(FeedParseError);
      expect((r.reason as Error).message).toBe('too many calendar feeds are being read at once; try again shortly');
    }
    // The queue drains: the next feed is read again.
    await expect(parseIcsFeedOffThread(feed, FIXTURE_RANGE.start, FIXTURE_RANGE.end, IMPORTED_TEXT_LIMITS)).resolves.not.toHaveLength(0);
  });
});
