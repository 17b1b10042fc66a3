import { Pool } from 'pg';
import { createTestDatabase } from '../testing/test-database';
import { clientWithDeadline, type QueryDeadline } from './query-deadline';

/**
 * The deadline against a real PostgreSQL: a statement that waits for a lock longer than the deadline,
 * on a database that answers, is not cut (a queue for one row on a busy machine is not an outage).
 * A database that does not answer at all is covered end to end by the frozen-database e2e suite.
 */
describe('clientWithDeadline', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;
  const deadline: QueryDeadline = { ms: 200, probeMs: 1_000 };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 3, Client: clientWithDeadline(deadline) });
    await pool.query('CREATE TABLE deadline_rows (id int PRIMARY KEY)');
    await pool.query('INSERT INTO deadline_rows VALUES (1)');
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('lets a statement wait for a lock well past its deadline while the database answers', async () => {
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM deadline_rows WHERE id = 1 FOR UPDATE');
      const waiting = pool.query('UPDATE deadline_rows SET id = 1 WHERE id = 1 RETURNING id');
      // Hold the lock until the waiting statement has outlived several deadlines, as the server sees it.
      const deadlineAt = Date.now() + 10_000;
      for (;;) {
        const { rows } = await pool.query<{ waited: number }>(
          `SELECT coalesce(max(extract(epoch FROM now() - query_start) * 1000), 0)::float8 AS waited
             FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE deadline_rows%'`,
        );
        if (rows[0]!.waited > deadline.ms * 4 || Date.now() > deadlineAt) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await holder.query('COMMIT');
      await expect(waiting).resolves.toMatchObject({ rows: [{ id: 1 }] });
    } finally {
      holder.release();
    }
  });
});
