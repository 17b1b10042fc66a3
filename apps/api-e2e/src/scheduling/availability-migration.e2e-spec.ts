import { schedulingMigrations } from '@almanac/scheduling';
import type { MigrationInterface } from 'typeorm';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { bookingBody, createSchedule, SCHEDULING_TEST_CONFIG } from './scheduling-helpers';

/**
 * The availability migration on a database that already has bookings: they keep their rows and get
 * zero buffers, and the exclusion constraint moves to the blocked time.
 */
describe('availability migration (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    t.clock.set('2026-11-21T08:00:00.000Z');
    a = await t.tenant();
  });
  afterAll(async () => t.close());

  /**
   * Runs the availability migration one way, with the later ones that build on its columns (the
   * blocked times, whose trigger reads the buffers, and what events hold) undone before it and redone after it.
   */
  async function run(direction: 'up' | 'down'): Promise<void> {
    const names = ['SchedulingAvailability1764150001500', 'SchedulingBlockedTimes1764400000000', 'SchedulingEventsHoldTime1764400000300'];
    const runner = t.dataSource.createQueryRunner();
    try {
      for (const name of direction === 'up' ? names : [...names].reverse()) {
        const Migration = schedulingMigrations.find((m) => m.name === name)!;
        await (new Migration() as MigrationInterface)[direction](runner);
      }
    } finally {
      await runner.release();
    }
  }

  async function constraint(): Promise<string> {
    const [row] = await t.query<{ def: string }>(
      "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'bookings_no_overlap'",
    );
    return row!.def;
  }

  it('gives existing bookings zero buffers and moves the no-overlap rule to the blocked time', async () => {
    const scheduleId = await createSchedule(t, a);
    const made = await t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send(bookingBody(scheduleId, { start_time: '2027-01-11T10:00:00Z', end_time: '2027-01-11T11:00:00Z' }))
      .expect(201);

    await run('down');
    expect(await constraint()).toContain('tstzrange(start_time, end_time');
    const columns = await t.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'bookings' AND column_name LIKE 'buffer_%'",
    );
    expect(columns[0]!.n).toBe(0);

    await run('up');
    expect(await constraint()).toContain('booking_blocked_time(start_time, end_time, buffer_before, buffer_after)');
    const [row] = await t.query<{ buffer_before: number; buffer_after: number }>(
      'SELECT buffer_before, buffer_after FROM bookings WHERE id = $1',
      [made.body.data.id],
    );
    expect(row).toEqual({ buffer_before: 0, buffer_after: 0 });
    // The blocked times start from the bookings there are.
    const blocked = await t.query<{ kind: string; source_id: string }>('SELECT kind, source_id FROM schedule_blocked_times WHERE schedule_id = $1', [scheduleId]);
    expect(blocked).toEqual([{ kind: 'booking', source_id: made.body.data.id }]);
    const got = await t.api.get(`/api/v1/bookings/${made.body.data.id}`).set(a.auth).expect(200);
    expect(got.body.data).toMatchObject({ buffer_before: 0, buffer_after: 0, start_time: '2027-01-11T10:00:00.000Z' });

    // Zero buffers: back-to-back is still fine, an overlap still 409.
    await t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send(bookingBody(scheduleId, { start_time: '2027-01-11T11:00:00Z', end_time: '2027-01-11T12:00:00Z' }))
      .expect(201);
    const overlap = await t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send(bookingBody(scheduleId, { start_time: '2027-01-11T10:30:00Z', end_time: '2027-01-11T10:45:00Z' }))
      .expect(409);
    expect(overlap.body.code).toBe('booking_overlap');
    // A buffer reaching over a neighbour is refused by the database itself.
    await expect(
      t.query('UPDATE bookings SET buffer_after = 1 WHERE id = $1', [made.body.data.id]),
    ).rejects.toThrow(/bookings_no_overlap/);
  });
});
