import { Client } from 'pg';
import type request from 'supertest';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { bookingBody, createBooking, createEventType, createSchedule, SCHEDULING_TEST_CONFIG } from './scheduling-helpers';

const TEN_TO_ELEVEN = { start_time: '2027-05-03T10:00:00Z', end_time: '2027-05-03T11:00:00Z' };
/** Rounds of the many-writers test; `npm run test:pgbouncer` raises it to look for rare interleavings. */
const ROUNDS = Number(process.env['ALMANAC_OVERLAP_ROUNDS'] ?? 3);

/**
 * An exclusion constraint checks for overlaps after the new row is in its index. Two overlapping
 * writes that both wait for a third, conflicting transaction (as when many requests go for one time)
 * wake together when it rolls back, and each finds the other's row still in progress: PostgreSQL
 * aborts one of them as a deadlock (40P01). The data source runs that write again, and it gets the
 * answer it would have had one at a time: 409 booking_overlap, not 500.
 */
describe('overlapping writes that deadlock in the database (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let blocker: Client;
  let observer: Client;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    t.clock.set('2027-05-01T08:00:00.000Z');
    a = await t.tenant();
    blocker = new Client({ connectionString: t.config.databaseUrl });
    // Outside any transaction, so that each look at the statistics is a fresh snapshot.
    observer = new Client({ connectionString: t.config.databaseUrl });
    await Promise.all([blocker.connect(), observer.connect()]);
  });
  afterAll(async () => {
    await Promise.all([blocker.end(), observer.end()]);
    await t.close();
  });

  async function deadlocksSoFar(): Promise<number> {
    const { rows } = await observer.query<{ n: number }>('SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()');
    return rows[0]!.n;
  }

  /** Polls a condition (no fixed sleeps): resolves as soon as it holds, fails after 20 s. */
  async function waitFor(what: string, condition: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Holds an uncommitted booking over 10:00–11:00 on the schedule, sends the writes, waits until
   * both wait for it inside their overlap check, rolls it back, and returns their answers once a
   * deadlock has been counted (so the test never passes without one).
   */
  async function releasedTogether(scheduleId: string, statementStart: string, writes: () => request.Test[]): Promise<request.Response[]> {
    const before = await deadlocksSoFar();
    await blocker.query('BEGIN');
    try {
      await blocker.query(
        `INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, timezone, status, title, attendee_name, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, 'UTC', 'PENDING', 'Blocker', 'Blocker', now(), now())`,
        [a.orgId, scheduleId, TEN_TO_ELEVEN.start_time, TEN_TO_ELEVEN.end_time],
      );
      const answers = Promise.all(writes());
      await waitFor('both writes waiting for the blocker', async () => {
        const { rows } = await observer.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
          [`${statementStart}%`],
        );
        return rows[0]!.n === 2;
      });
      await blocker.query('ROLLBACK');
      const results = await answers;
      await waitFor('a deadlock counted by the database', async () => (await deadlocksSoFar()) > before);
      return results;
    } finally {
      await blocker.query('ROLLBACK');
    }
  }

  async function bookingsOf(scheduleId: string): Promise<string[]> {
    const rows = await t.query<{ id: string }>(`SELECT id FROM bookings WHERE schedule_id = $1 AND status IN ('PENDING', 'CONFIRMED')`, [scheduleId]);
    return rows.map((r) => r.id);
  }

  function expectOneWinner(results: request.Response[], winning: number): void {
    expect(results.map((r) => r.status).sort()).toEqual([winning, 409]);
    expect(results.find((r) => r.status === 409)!.body).toMatchObject({ status: 409, code: 'booking_overlap' });
  }

  it('two creates (one statement each): one 201, one 409 booking_overlap', async () => {
    const scheduleId = await createSchedule(t, a);
    const create = () => t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, TEN_TO_ELEVEN));
    const results = await releasedTogether(scheduleId, 'WITH created AS (INSERT INTO bookings', () => [create(), create()]);
    expectOneWinner(results, 201);
    expect(await bookingsOf(scheduleId)).toEqual([results.find((r) => r.status === 201)!.body.data.id]);
  });

  it('two creates against availability (a transaction each): one 201, one 409 booking_overlap', async () => {
    const scheduleId = await createSchedule(t, a, { availability: [{ days: ['mon'], start: '08:00', end: '18:00' }] });
    const eventTypeId = await createEventType(t, a, { duration: 60 });
    const create = () => t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, { ...TEN_TO_ELEVEN, event_type_id: eventTypeId }));
    const results = await releasedTogether(scheduleId, 'WITH created AS (INSERT INTO bookings', () => [create(), create()]);
    expectOneWinner(results, 201);
    expect(await bookingsOf(scheduleId)).toEqual([results.find((r) => r.status === 201)!.body.data.id]);
  });

  it('two reschedules into one time: one 200, one 409 booking_overlap', async () => {
    const scheduleId = await createSchedule(t, a);
    const first = await createBooking(t, a, scheduleId, { start_time: '2027-05-03T12:00:00Z', end_time: '2027-05-03T13:00:00Z' });
    const second = await createBooking(t, a, scheduleId, { start_time: '2027-05-03T14:00:00Z', end_time: '2027-05-03T15:00:00Z' });
    const move = (id: string) => t.api.patch(`/api/v1/bookings/${id}`).set(a.auth).send(TEN_TO_ELEVEN);
    const results = await releasedTogether(scheduleId, 'UPDATE bookings', () => [move(first.id), move(second.id)]);
    expectOneWinner(results, 200);
    const [moved] = await t.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE schedule_id = $1 AND start_time = $2', [
      scheduleId,
      TEN_TO_ELEVEN.start_time,
    ]);
    expect(moved!.n).toBe(1);
    expect((await bookingsOf(scheduleId)).sort()).toEqual([first.id, second.id].sort());
  });

  it(`20 parallel creates of one time, ${ROUNDS} rounds: exactly one 201 each round, the rest 409 booking_overlap`, async () => {
    const misses: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const scheduleId = await createSchedule(t, a);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, TEN_TO_ELEVEN))),
      );
      const created = results.filter((r) => r.status === 201);
      const others = results.filter((r) => r.status !== 201 && !(r.status === 409 && r.body.code === 'booking_overlap'));
      if (created.length !== 1 || others.length > 0) {
        misses.push(`round ${round}: ${created.length} × 201, others ${JSON.stringify(others.map((r) => [r.status, r.body.code]))}`);
      } else {
        expect(await bookingsOf(scheduleId)).toEqual([created[0]!.body.data.id]);
      }
    }
    expect(misses).toEqual([]);
  }, 60_000 + ROUNDS * 2_000);
});
