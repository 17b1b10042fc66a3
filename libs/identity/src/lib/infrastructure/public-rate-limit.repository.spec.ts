import { AppConfig, ManualClock, SqlClient } from '@almanac/shared';
import { createTestDatabase } from '@almanac/shared/testing';
import { DataSource } from 'typeorm';
import { PublicRateLimitRepository } from './public-rate-limit.repository';
import { PublicRateLimiter, SWEEP_BATCH, SWEEP_MAX_BATCHES } from '../application/public-rate-limiter';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');

/** Polls `probe` until it holds, for at most 10 s (no fixed sleeps). */
async function eventually(probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The per-client limit of /public/v1 (the SQL function and the sweep, through the limiter) on a real PostgreSQL. */
describe('PublicRateLimiter', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: PublicRateLimitRepository;
  const clock = new ManualClock(new Date(T0));
  const limiter = (limit: number) => new PublicRateLimiter(repository, clock, new AppConfig({ publicRateLimitPerMinute: limit }));
  let client = 0;
  /** A client nobody has used yet, so each case starts with a full budget. */
  const newClient = () => `198.51.100.${++client}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    repository = new PublicRateLimitRepository(new SqlClient(dataSource));
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  // [seconds after T0 (fractions allowed), the answer: null passes, n = 429 with Retry-After n]
  it.each<[string, number, Array<[number, number | null]>]>([
    ['a burst takes the budget; the bucket of its second leaves 61 s later', 3, [[0.2, null], [0.4, null], [0.9, null], [0.9, 61], [60.9, 1], [61, null]]],
    ['spread requests leave one by one', 3, [[0, null], [10, null], [20, null], [30, 31], [60, 1], [61, null], [62, 9], [71, null], [72, 9]]],
    ['refused requests do not count', 2, [[5, null], [5, null], [6, 60], [7, 59], [50, 16], [66, null]]],
    ['a quiet minute and more forgets everything', 2, [[0, null], [0, null], [500, null], [500, null], [500, 61]]],
    ['a clock a little behind counts in the newest second, never earlier', 2, [[10, null], [8, null], [9, 62], [71, null]]],
    ['one request a minute', 1, [[0, null], [59, 2], [61, null], [61.5, 61]]],
  ])('%s (limit %i)', async (_name, limit, steps) => {
    const key = newClient();
    const subject = limiter(limit);
    const answers: Array<number | null> = [];
    for (const [at] of steps) {
      clock.set(new Date(T0 + at * 1000));
      answers.push(await subject.hit(key));
    }
    expect(answers).toEqual(steps.map(([, expected]) => expected));
  });

  it('counts nothing when switched off (0)', async () => {
    const key = newClient();
    for (let i = 0; i < 5; i++) expect(await limiter(0).hit(key)).toBeNull();
    expect(await dataSource.query('SELECT 1 FROM public_rate_limits WHERE client_key = $1', [key])).toEqual([]);
  });

  describe('the sweep', () => {
    const idle = (count: number, prefix: string, newestSecond: number) =>
      dataSource.query(
        `INSERT INTO public_rate_limits (client_key, newest_second, counts)
         SELECT $1 || n, $2, array_fill(0, ARRAY[60]) || 1 FROM generate_series(1, $3) n`,
        [prefix, newestSecond, count],
      );
    const countOf = async (prefix: string) =>
      Number((await dataSource.query(`SELECT count(*) AS n FROM public_rate_limits WHERE client_key LIKE $1 || '%'`, [prefix]))[0].n);

    beforeEach(() => dataSource.query('DELETE FROM public_rate_limits'));

    it('deletes the rows of clients idle for a minute, keeps the others, and skips a row in use rather than wait', async () => {
      clock.set(new Date(T0));
      const now = T0 / 1000;
      await idle(12_000, 'idle-', now - 61);
      await idle(3, 'recent-', now - 60);
      await idle(1, 'held-', now - 3600);
      const holder = dataSource.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      try {
        await holder.query(`SELECT 1 FROM public_rate_limits WHERE client_key = 'held-1' FOR UPDATE`);
        expect(await limiter(5).sweep()).toBe(12_000);
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      expect(await countOf('idle-')).toBe(0);
      expect(await countOf('recent-')).toBe(3);
      expect(await countOf('held-')).toBe(1);
      expect(await limiter(5).sweep()).toBe(1);
    });

    it('deletes a bounded number of batches a sweep: 20 of 5,000 rows on the request path', async () => {
      clock.set(new Date(T0));
      await idle(307, 'idle-', T0 / 1000 - 3600);
      expect(await limiter(5).sweep(100, 3)).toBe(300);
      expect(await countOf('idle-')).toBe(7);
      expect(await limiter(5).sweep(100, 3)).toBe(7);
      expect([SWEEP_BATCH, SWEEP_MAX_BATCHES]).toEqual([5_000, 20]);
    });

    it('runs from the request path, at most once a minute per instance', async () => {
      clock.set(new Date(T0));
      const subject = limiter(5);
      await idle(10, 'idle-', T0 / 1000 - 120);
      await subject.hit(newClient());
      await eventually(async () => (await countOf('idle-')) === 0);
      await idle(10, 'later-', T0 / 1000 - 120);
      clock.advance(59_000);
      await subject.hit(newClient());
      clock.advance(999);
      await subject.hit(newClient());
      expect(await countOf('later-')).toBe(10);
      clock.advance(1);
      await subject.hit(newClient());
      await eventually(async () => (await countOf('later-')) === 0);
    });
  });
});
