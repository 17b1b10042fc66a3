import { Client } from 'pg';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { bookingBody, createBooking, createSchedule, SCHEDULING_TEST_CONFIG, slot } from './scheduling-helpers';

const STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;
type Status = (typeof STATUSES)[number];

/** The only moves Update Booking makes, written out independently of the domain table. */
const ALLOWED = new Set(['PENDING>CONFIRMED', 'PENDING>CANCELLED', 'CONFIRMED>COMPLETED', 'CONFIRMED>CANCELLED', 'CONFIRMED>NO_SHOW']);

/** How to reach each status from PENDING through allowed moves. */
const PATH: Record<Status, Status[]> = {
  PENDING: [],
  CONFIRMED: ['CONFIRMED'],
  CANCELLED: ['CANCELLED'],
  COMPLETED: ['CONFIRMED', 'COMPLETED'],
  NO_SHOW: ['CONFIRMED', 'NO_SHOW'],
};

describe('booking status machine (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let scheduleId: string;
  let nextSlot = 0;

  async function bookingIn(status: Status): Promise<Record<string, any>> {
    const booking = await createBooking(t, a, scheduleId, slot(nextSlot++));
    let last = booking;
    for (const step of PATH[status]) {
      last = (await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send({ status: step }).expect(200)).body.data;
    }
    expect(last.status).toBe(status);
    return last;
  }

  async function row(id: string): Promise<{ status: string; updated_at: Date; cancelled_at: Date | null }> {
    const [r] = await t.query<{ status: string; updated_at: Date; cancelled_at: Date | null }>(
      'SELECT status, updated_at, cancelled_at FROM bookings WHERE id = $1',
      [id],
    );
    return r!;
  }

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    t.clock.set('2026-11-21T08:00:00.000Z');
    a = await t.tenant();
    scheduleId = await createSchedule(t, a);
  });
  afterAll(async () => t.close());

  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to, ALLOWED.has(`${from}>${to}`)] as const));

  it.each(pairs)('PATCH %s → %s allowed: %s', async (from, to, allowed) => {
    const booking = await bookingIn(from);
    t.clock.advance(60_000);
    const now = t.clock.now().toISOString();
    const res = await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send({ status: to });
    if (allowed) {
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...booking,
        status: to,
        updated_at: now,
        cancelled_at: to === 'CANCELLED' ? now : null,
        cancelled_by: to === 'CANCELLED' ? 'api' : null,
      });
      expect(res.body.data.updated_at).not.toBe(booking.updated_at);
      const stored = await row(booking.id);
      expect(stored.status).toBe(to);
      expect(stored.updated_at.toISOString()).toBe(now);
    } else {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'invalid_transition', status: 409 });
      const stored = await row(booking.id);
      expect(stored.status).toBe(from);
      expect(stored.updated_at.toISOString()).toBe(booking.updated_at);
    }
  });

  describe('DELETE', () => {
    it.each(['PENDING', 'CONFIRMED'] as const)('cancels a %s booking and keeps the record', async (from) => {
      const booking = await bookingIn(from);
      t.clock.advance(60_000);
      const now = t.clock.now().toISOString();
      const res = await t.api.delete(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(200);
      expect(res.body).toEqual({
        data: { ...booking, status: 'CANCELLED', updated_at: now, cancelled_at: now, cancelled_by: 'api', cancelled: true },
      });
      const stored = await row(booking.id);
      expect(stored).toEqual({ status: 'CANCELLED', updated_at: new Date(now), cancelled_at: new Date(now) });
      const got = await t.api.get(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(200);
      expect(got.body.data.status).toBe('CANCELLED');
    });

    it('is idempotent on a CANCELLED booking: 200 with the same body, nothing changes', async () => {
      const booking = await bookingIn('PENDING');
      const first = await t.api.delete(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(200);
      t.clock.advance(60_000);
      const second = await t.api.delete(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(200);
      expect(second.body).toEqual(first.body);
      const cancelledByPatch = await bookingIn('CANCELLED');
      const third = await t.api.delete(`/api/v1/bookings/${cancelledByPatch.id}`).set(a.auth).expect(200);
      expect(third.body).toEqual({ data: { ...cancelledByPatch, cancelled: true } });
    });

    it.each(['COMPLETED', 'NO_SHOW'] as const)('refuses a %s booking with 409 invalid_transition', async (from) => {
      const booking = await bookingIn(from);
      const res = await t.api.delete(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(409);
      expect(res.body.code).toBe('invalid_transition');
      expect((await row(booking.id)).status).toBe(from);
    });
  });

  describe('concurrency', () => {
    it('50 parallel POSTs for overlapping times on one schedule create exactly one booking', async () => {
      const schedule = await createSchedule(t, a);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.api
            .post('/api/v1/bookings')
            .set(a.auth)
            .send(bookingBody(schedule, { start_time: `2027-05-01T10:${String(i % 30).padStart(2, '0')}:00Z`, end_time: '2027-05-01T11:00:00Z' })),
        ),
      );
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status === 409);
      expect(created).toHaveLength(1);
      expect(refused).toHaveLength(49);
      expect(refused.every((r) => r.body.code === 'booking_overlap')).toBe(true);
      const rows = await t.query<{ id: string }>('SELECT id FROM bookings WHERE schedule_id = $1', [schedule]);
      expect(rows.map((r) => r.id)).toEqual([created[0]!.body.data.id]);
    });

    it('parallel reschedules into one free slot: exactly one wins', async () => {
      const schedule = await createSchedule(t, a);
      const bookings = [];
      for (let i = 0; i < 10; i++) bookings.push(await createBooking(t, a, schedule, slot(100 + i)));
      const results = await Promise.all(
        bookings.map((b) => t.api.patch(`/api/v1/bookings/${b.id}`).set(a.auth).send(slot(200))),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.code === 'booking_overlap')).toHaveLength(9);
      const rows = await t.query('SELECT 1 FROM bookings WHERE schedule_id = $1 AND start_time = $2', [schedule, slot(200).start_time]);
      expect(rows).toHaveLength(1);
    });

    it('20 parallel PATCHes moving one PENDING booking to CONFIRMED and CANCELLED leave exactly one winner', async () => {
      const booking = await bookingIn('PENDING');
      // Hold the row so that every request has read PENDING before any of them may write:
      // the moves then all start from PENDING, and only the compare-and-swap can pick a winner.
      const blocker = new Client({ connectionString: t.config.databaseUrl });
      // Outside any transaction, so that each look at pg_stat_activity is a fresh snapshot.
      const observer = new Client({ connectionString: t.config.databaseUrl });
      await Promise.all([blocker.connect(), observer.connect()]);
      try {
        await blocker.query('BEGIN');
        await blocker.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [booking.id]);
        const settled = Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send({ status: i % 2 === 0 ? 'CONFIRMED' : 'CANCELLED' }),
          ),
        );
        await waitFor(async () => {
          const { rows } = await observer.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE bookings%'`,
          );
          return rows[0]!.waiting === 20;
        });
        await blocker.query('COMMIT');
        const results = await settled;
        const winners = results.filter((r) => r.status === 200);
        const losers = results.filter((r) => r.status === 409);
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(19);
        expect(losers.every((r) => r.body.code === 'invalid_transition')).toBe(true);
        expect((await row(booking.id)).status).toBe(winners[0]!.body.data.status);
      } finally {
        await Promise.all([blocker.end(), observer.end()]);
      }
    });

    it('20 parallel PATCHes without coordination never leave an impossible history', async () => {
      const booking = await bookingIn('PENDING');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send({ status: i % 2 === 0 ? 'CONFIRMED' : 'CANCELLED' }),
        ),
      );
      const won = results.filter((r) => r.status === 200).map((r) => r.body.data.status as string);
      expect(results.every((r) => r.status === 200 || (r.status === 409 && r.body.code === 'invalid_transition'))).toBe(true);
      // Either PENDING → CANCELLED, or PENDING → CONFIRMED (then possibly → CANCELLED): each move at most once.
      expect([['CANCELLED'], ['CONFIRMED'], ['CANCELLED', 'CONFIRMED']]).toContainEqual([...won].sort());
      expect((await row(booking.id)).status).toBe(won.includes('CANCELLED') ? 'CANCELLED' : 'CONFIRMED');
    });

    it('10 parallel DELETEs of one booking all answer 200 with one cancellation', async () => {
      const booking = await bookingIn('CONFIRMED');
      t.clock.advance(60_000);
      const results = await Promise.all(Array.from({ length: 10 }, () => t.api.delete(`/api/v1/bookings/${booking.id}`).set(a.auth)));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
      expect((await row(booking.id)).status).toBe('CANCELLED');
    });
  });
});

/** Polls a condition (no fixed sleeps): resolves as soon as it holds, fails after 10 s. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
