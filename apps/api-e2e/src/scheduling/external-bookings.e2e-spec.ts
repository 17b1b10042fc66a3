import { ExternalBookingsService, ImportedBooking } from '@almanac/scheduling';
import { Transactions } from '@almanac/shared';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BOOKING_FIELDS, bookingBody, createSchedule, SCHEDULING_TEST_CONFIG, UNKNOWN_ID } from './scheduling-helpers';

const RANGE = { start: new Date('2027-06-01T00:00:00Z'), end: new Date('2027-07-01T00:00:00Z') };
const H = 3_600_000;

interface OccurrenceFields {
  recurrenceId: string | null;
  title: string;
  location: string | null;
  end: Date;
  attendeeName: string;
  attendeeEmail: string | null;
}

function occurrence(uid: string, startIso: string, extra: Partial<OccurrenceFields> = {}): ImportedBooking {
  const start = new Date(startIso);
  const o: OccurrenceFields = {
    recurrenceId: null,
    title: `Event ${uid}`,
    location: 'Room 1',
    end: new Date(start.getTime() + H),
    attendeeName: 'Organizer',
    attendeeEmail: 'organizer@example.com',
    ...extra,
  };
  return ImportedBooking.from(
    {
      uid,
      recurrenceId: o.recurrenceId,
      title: o.title,
      location: o.location,
      start,
      end: o.end,
      contact: { name: o.attendeeName, email: o.attendeeEmail },
    },
    'External calendar',
  );
}

interface Row {
  id: string;
  status: string;
  start_time: Date;
  end_time: Date;
  title: string;
  location: string | null;
  attendee_email: string | null;
  metadata: Record<string, unknown>;
  updated_at: Date;
  cancelled_at: Date | null;
  cancelled_by: string | null;
}

/**
 * The service calendar-sync imports with, against real PostgreSQL: the keyed upsert, the counts,
 * overlaps inside the caller's transaction (an ambient `Transactions.run`), and 5,000 occurrences in
 * a handful of statements.
 */
describe('ExternalBookingsService (PostgreSQL)', () => {
  let t: TestApp;
  let service: ExternalBookingsService;
  let transactions: Transactions;
  let a: Tenant;
  let scheduleId: string;

  async function sync(occurrences: ImportedBooking[], range = RANGE, schedule = scheduleId) {
    return service.reconcileImported(a.orgId, schedule, range, occurrences);
  }

  async function rows(schedule = scheduleId): Promise<Row[]> {
    return t.query<Row>(
      `SELECT id, status, start_time, end_time, title, location, attendee_email, metadata, updated_at, cancelled_at, cancelled_by
         FROM bookings WHERE schedule_id = $1 ORDER BY start_time, id`,
      [schedule],
    );
  }

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    t.clock.set('2027-05-01T00:00:00.000Z');
    service = t.app.get(ExternalBookingsService);
    transactions = t.app.get(Transactions);
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    t.clock.set('2027-05-01T00:00:00.000Z');
    a = await t.tenant();
    scheduleId = await createSchedule(t, a, { timezone: 'Europe/Berlin' });
  });

  it('tells whether a schedule exists in the organization', async () => {
    const b = await t.tenant();
    expect(await service.scheduleExists(a.orgId, scheduleId)).toBe(true);
    expect(await service.scheduleExists(b.orgId, scheduleId)).toBe(false);
    expect(await service.scheduleExists(a.orgId, UNKNOWN_ID)).toBe(false);
    expect(await service.scheduleExists(a.orgId, 'not-a-uuid')).toBe(false);
  });

  it('imports new occurrences as CONFIRMED bookings with their identity in metadata', async () => {
    const outcome = await sync([
      occurrence('weekly@example.com', '2027-06-07T09:00:00Z', { recurrenceId: '2027-06-07T09:00:00Z' }),
      occurrence('weekly@example.com', '2027-06-14T09:00:00Z', { recurrenceId: '2027-06-14T09:00:00.000Z' }),
      occurrence('single@example.com', '2027-06-10T15:00:00Z', { attendeeEmail: null, location: null, title: 'Dentist' }),
    ]);
    expect(outcome).toEqual({ synced: 3, updated: 0, cancelled: 0, duplicate: 0, conflict: 0 });
    const stored = await rows();
    expect(stored.map((r) => [r.status, r.title, r.location, r.attendee_email, r.metadata])).toEqual([
      ['CONFIRMED', 'Event weekly@example.com', 'Room 1', 'organizer@example.com', { source: 'external_calendar', external_uid: 'weekly@example.com', recurrence_id: '2027-06-07T09:00:00.000Z' }],
      ['CONFIRMED', 'Dentist', null, null, { source: 'external_calendar', external_uid: 'single@example.com', recurrence_id: null }],
      ['CONFIRMED', 'Event weekly@example.com', 'Room 1', 'organizer@example.com', { source: 'external_calendar', external_uid: 'weekly@example.com', recurrence_id: '2027-06-14T09:00:00.000Z' }],
    ]);
    // The API shows imported bookings like any other, a missing attendee e-mail as null.
    const res = await t.api.get(`/api/v1/bookings?schedule_id=${scheduleId}`).set(a.auth).expect(200);
    expect(res.body.meta.total).toBe(3);
    expect(Object.keys(res.body.data[1]).sort()).toEqual(BOOKING_FIELDS);
    expect(res.body.data[1]).toMatchObject({ attendee_email: null, timezone: 'Europe/Berlin', event_type_id: null, status: 'CONFIRMED' });
  });

  it('counts an unchanged feed as duplicates and changes nothing', async () => {
    const feed = [occurrence('a', '2027-06-02T09:00:00Z'), occurrence('b', '2027-06-03T09:00:00Z'), occurrence('b', '2027-06-03T09:00:00Z')];
    expect(await sync(feed)).toEqual({ synced: 2, updated: 0, cancelled: 0, duplicate: 1, conflict: 0 });
    const before = await rows();
    t.clock.advance(H);
    expect(await sync(feed)).toEqual({ synced: 0, updated: 0, cancelled: 0, duplicate: 3, conflict: 0 });
    expect(await rows()).toEqual(before);
  });

  it('updates moved or renamed occurrences and cancels vanished ones within the range only', async () => {
    await sync([
      occurrence('move', '2027-06-02T09:00:00Z'),
      occurrence('rename', '2027-06-03T09:00:00Z'),
      occurrence('relocate', '2027-06-04T09:00:00Z'),
      occurrence('gone', '2027-06-05T09:00:00Z'),
      occurrence('keep', '2027-06-06T09:00:00Z'),
    ]);
    // An import of a wider range earlier left a booking outside this range.
    await sync([occurrence('outside', '2027-07-05T09:00:00Z')], { start: new Date('2027-07-01T00:00:00Z'), end: new Date('2027-08-01T00:00:00Z') });
    t.clock.set('2027-05-02T00:00:00.000Z');
    const outcome = await sync([
      occurrence('move', '2027-06-20T10:00:00Z'),
      occurrence('rename', '2027-06-03T09:00:00Z', { title: 'Renamed' }),
      occurrence('relocate', '2027-06-04T09:00:00Z', { location: 'Room 2' }),
      occurrence('keep', '2027-06-06T09:00:00Z'),
    ]);
    expect(outcome).toEqual({ synced: 0, updated: 3, cancelled: 1, duplicate: 1, conflict: 0 });
    const byUid = Object.fromEntries((await rows()).map((r) => [r.metadata['external_uid'], r]));
    expect(byUid['move']).toMatchObject({ status: 'CONFIRMED', start_time: new Date('2027-06-20T10:00:00Z'), end_time: new Date('2027-06-20T11:00:00Z') });
    expect(byUid['rename']).toMatchObject({ title: 'Renamed', updated_at: new Date('2027-05-02T00:00:00Z') });
    expect(byUid['relocate']).toMatchObject({ location: 'Room 2' });
    expect(byUid['gone']).toMatchObject({ status: 'CANCELLED', cancelled_at: new Date('2027-05-02T00:00:00Z'), cancelled_by: 'import' });
    expect(byUid['keep']!.updated_at).toEqual(new Date('2027-05-01T00:00:00Z'));
    expect(byUid['outside']).toMatchObject({ status: 'CONFIRMED' });
  });

  it('brings back an occurrence it cancelled, but not a booking a user cancelled or completed', async () => {
    await sync([occurrence('flaky', '2027-06-02T09:00:00Z'), occurrence('user-cancelled', '2027-06-03T09:00:00Z'), occurrence('done', '2027-06-04T09:00:00Z')]);
    const byUid = async () => Object.fromEntries((await rows()).map((r) => [r.metadata['external_uid'], r]));
    const ids = await byUid();
    await t.api.delete(`/api/v1/bookings/${ids['user-cancelled']!.id}`).set(a.auth).expect(200);
    await t.api.patch(`/api/v1/bookings/${ids['done']!.id}`).set(a.auth).send({ status: 'COMPLETED' }).expect(200);
    expect(await sync([occurrence('user-cancelled', '2027-06-03T09:00:00Z'), occurrence('done', '2027-06-04T09:00:00Z')])).toEqual({
      synced: 0,
      updated: 0,
      cancelled: 1,
      duplicate: 2,
      conflict: 0,
    });
    expect((await byUid())['flaky']).toMatchObject({ status: 'CANCELLED', cancelled_by: 'import' });
    const back = await sync([
      occurrence('flaky', '2027-06-02T09:00:00Z'),
      occurrence('user-cancelled', '2027-06-03T09:00:00Z'),
      occurrence('done', '2027-06-04T09:00:00Z'),
    ]);
    expect(back).toEqual({ synced: 0, updated: 1, cancelled: 0, duplicate: 2, conflict: 0 });
    const after = await byUid();
    expect(after['flaky']).toMatchObject({ status: 'CONFIRMED', cancelled_at: null, cancelled_by: null, id: ids['flaky']!.id });
    expect(after['user-cancelled']).toMatchObject({ status: 'CANCELLED', cancelled_by: 'api' });
    expect(after['done']!.status).toBe('COMPLETED');
  });

  it('counts overlaps as conflicts without aborting the caller’s transaction', async () => {
    const manual = await t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, { start_time: '2027-06-02T09:30:00Z', end_time: '2027-06-02T10:30:00Z' })).expect(201);
    await sync([occurrence('moving', '2027-06-05T09:00:00Z'), occurrence('moving-ok', '2027-06-05T12:00:00Z')]);
    const outcome = await transactions.run(async () => {
      const result = await service.reconcileImported(a.orgId, scheduleId, RANGE, [
          occurrence('clash', '2027-06-02T09:00:00Z'),
          occurrence('first', '2027-06-03T09:00:00Z'),
          occurrence('second-overlaps-first', '2027-06-03T09:30:00Z'),
          occurrence('moving', '2027-06-02T10:00:00Z'),
          // Updated in the same batch as the conflicting move: the batch is split, this one survives.
          occurrence('moving-ok', '2027-06-07T12:00:00Z'),
          occurrence('zero', '2027-06-04T09:00:00Z', { end: new Date('2027-06-04T09:00:00Z') }),
          occurrence('fine', '2027-06-06T09:00:00Z'),
      ]);
      // The transaction is still usable after the overlaps.
      await transactions.manager().query('INSERT INTO schedules (id, organization_id, name, timezone, created_at, updated_at) VALUES ($1, $2, $3, $4, now(), now())', [
        '01900000-0000-7000-8000-0000000000aa',
        a.orgId,
        'written after the sync',
        'UTC',
      ]);
      return result;
    });
    expect(outcome).toEqual({ synced: 2, updated: 1, cancelled: 0, duplicate: 0, conflict: 4 });
    const stored = await rows();
    expect(stored.map((r) => r.metadata['external_uid'] ?? 'manual')).toEqual(['manual', 'first', 'moving', 'fine', 'moving-ok']);
    // The booking whose move conflicts keeps its old time.
    expect(stored.find((r) => r.metadata['external_uid'] === 'moving')!.start_time).toEqual(new Date('2027-06-05T09:00:00Z'));
    expect(stored[0]!.id).toBe(manual.body.data.id);
    expect(await t.query("SELECT 1 FROM schedules WHERE name = 'written after the sync'")).toHaveLength(1);
  });

  it("runs in the caller's transaction: a rollback leaves nothing behind", async () => {
    await expect(
      transactions.run(async () => {
        await service.reconcileImported(a.orgId, scheduleId, RANGE, [occurrence('x', '2027-06-02T09:00:00Z')]);
        throw new Error('caller fails later');
      }),
    ).rejects.toThrow('caller fails later');
    expect(await rows()).toEqual([]);
  });

  it('opens a transaction of its own when given none, and refuses an unknown schedule with invalid_reference', async () => {
    const outcome = await service.reconcileImported(a.orgId, scheduleId, RANGE, [occurrence('solo', '2027-06-02T09:00:00Z')]);
    expect(outcome.synced).toBe(1);
    const b = await t.tenant();
    await expect(
      transactions.run(() => service.reconcileImported(b.orgId, scheduleId, RANGE, [])),
    ).rejects.toMatchObject({ code: 'invalid_reference' });
  });

  it('keeps hostile text from a feed intact (NUL bytes dropped, over-long text cut)', async () => {
    await sync([
      occurrence('odd', '2027-06-02T09:00:00Z', {
        title: `x\u0000y'); DROP TABLE bookings; -- ${'t'.repeat(400)}`,
        location: '"quoted", {braces}, back\\slash',
        attendeeName: '',
        attendeeEmail: `${'e'.repeat(400)}@example.com`,
      }),
    ]);
    const [row] = await rows();
    expect(row!.title).toHaveLength(300);
    expect(row!.title.startsWith("xy'); DROP TABLE bookings; --")).toBe(true);
    expect(row!.location).toBe('"quoted", {braces}, back\\slash');
    expect(row!.attendee_email).toBeNull();
  });

  it('imports 5,000 occurrences in a handful of statements per thousand, and re-syncs them as duplicates', async () => {
    // Ten manual bookings sit where ten of the occurrences fall.
    for (let i = 0; i < 10; i++) {
      const start = new Date(RANGE.start.getTime() + i * 500 * 5 * 60_000);
      await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send(bookingBody(scheduleId, { start_time: start.toISOString(), end_time: new Date(start.getTime() + 60_000).toISOString() }))
        .expect(201);
    }
    const feed = Array.from({ length: 5000 }, (_, i) => {
      const start = new Date(RANGE.start.getTime() + i * 5 * 60_000);
      return occurrence('series', start.toISOString(), { recurrenceId: start.toISOString(), end: new Date(start.getTime() + 4 * 60_000) });
    });

    const statements = { count: 0 };
    // Counts the statements of the ambient transaction the service joins.
    const counted = async <T>(fn: () => Promise<T>) =>
      transactions.run(async () => {
        const em = transactions.manager();
        const original = em.query.bind(em);
        em.query = ((sql: string, params?: unknown[]) => {
          statements.count += 1;
          return original(sql, params);
        }) as typeof em.query;
        return fn();
      });

    let started = Date.now();
    const first = await counted(() => service.reconcileImported(a.orgId, scheduleId, RANGE, feed));
    const firstMs = Date.now() - started;
    expect(first).toEqual({ synced: 4990, updated: 0, cancelled: 0, duplicate: 0, conflict: 10 });
    // Per 1,000 occurrences: a savepoint, the insert, its release, the events read and recorded.
    expect(statements.count).toBeLessThanOrEqual(5 + 7 * 5);
    expect(await t.query("SELECT 1 FROM bookings WHERE schedule_id = $1 AND status = 'CONFIRMED'", [scheduleId])).toHaveLength(4990);

    statements.count = 0;
    started = Date.now();
    const second = await counted(() => service.reconcileImported(a.orgId, scheduleId, RANGE, feed));
    const secondMs = Date.now() - started;
    expect(second).toEqual({ synced: 0, updated: 0, cancelled: 0, duplicate: 4990, conflict: 10 });
    expect(statements.count).toBeLessThanOrEqual(20);
    // Generous bounds for a shared 2-core machine; the numbers are logged for the report.
    expect(firstMs).toBeLessThan(15_000);
    expect(secondMs).toBeLessThan(15_000);
    console.info(`external sync of 5,000 occurrences: first ${firstMs} ms, repeat ${secondMs} ms`);
  });
});
