import { IMPORTED_TEXT_LIMITS } from '@almanac/scheduling';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_RANGE, readFixture } from '../../testing/fixtures';
import { FeedParseError } from './ics-parser';
import { PARSE_QUEUE_MAX, parseIcsFeedOffThread, parseOnThread } from './ics-parse-runner';

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

/**
 * The thread itself, with stand-ins for the compiled parser (Jest runs the TypeScript sources, which
 * a thread cannot load): one that is slow to load, as the real one is on a loaded machine, and one
 * that never ends.
 */
describe('parseOnThread', () => {
  let dir: string;
  const parser = (name: string, body: string) => {
    const file = join(dir, `${name}.js`);
    writeFileSync(file, `class FeedParseError extends Error {}\n${body}\nmodule.exports = { FeedParseError, parseIcsFeed };\n`);
    return file;
  };
  // Blocks the thread for `ms` as loading many modules would (no event loop turn meanwhile).
  const blockFor = (ms: number) => `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});`;
  const parse = (file: string, timeouts: { startMs: number; deadlineMs: number }) =>
    parseOnThread(file, 'BEGIN:VCALENDAR', FIXTURE_RANGE.start, FIXTURE_RANGE.end, IMPORTED_TEXT_LIMITS, timeouts);

  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'almanac-parse-runner-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the parse its whole deadline however long the thread took to start (the start is not the feed's doing)", async () => {
    const slowToLoad = parser('slow-to-load', `${blockFor(1500)}\nconst parseIcsFeed = () => [];`);
    await expect(parse(slowToLoad, { startMs: 30_000, deadlineMs: 500 })).resolves.toEqual([]);
  });

  it('stops a parse past its deadline', async () => {
    const endless = parser('endless', 'const parseIcsFeed = () => { for (;;); };');
    await expect(parse(endless, { startMs: 30_000, deadlineMs: 300 })).rejects.toThrow(new FeedParseError('the feed takes too long to read'));
  });

  it('bounds the start too', async () => {
    const neverLoads = parser('never-loads', 'for (const end = Date.now() + 60_000; Date.now() < end; );\nconst parseIcsFeed = () => [];');
    await expect(parse(neverLoads, { startMs: 300, deadlineMs: 30_000 })).rejects.toThrow(new FeedParseError('the feed could not be read now; try again shortly'));
  });
});
