import { IdentityModule, IdentityService } from '@almanac/identity';
import { createContextTest, type ContextTest } from '@almanac/shared/testing';
import { SchedulingModule } from '../scheduling.module';
import { BookingsService } from './bookings.service';
import { EventTypesService } from './event-types.service';
import { SchedulesService } from './schedules.service';

// Bookings through their service and real repositories on the real database, without HTTP.
describe('BookingsService (medium)', () => {
  let ctx: ContextTest;
  let bookings: BookingsService;
  let org: string;
  let scheduleId: string;

  const attendee = { name: 'Ada', email: 'ada@example.com' };
  /** Monday 23 November 2026, from 09:00 UTC plus `hour` hours, `minutes` long. */
  const at = (hour: number, minutes = 60) => {
    const startTime = new Date(Date.UTC(2026, 10, 23, 9 + hour));
    return { startTime, endTime: new Date(startTime.getTime() + minutes * 60_000) };
  };
  /** Creates a booking and answers it (without the manage token shown once with it). */
  const book = async (command: Parameters<BookingsService['create']>[1]) => (await bookings.create(org, command)).booking;
  const outbox = (type: string) =>
    ctx.query<{ id: string }>(`SELECT data->>'id' AS id FROM outbox_events WHERE organization_id = $1 AND type = $2 ORDER BY seq`, [org, type]);

  beforeAll(async () => {
    ctx = await createContextTest({ modules: [IdentityModule, SchedulingModule], now: new Date('2026-11-21T08:00:00Z') });
    bookings = ctx.get(BookingsService);
  });
  afterAll(async () => ctx?.close());
  beforeEach(async () => {
    org = (await ctx.get(IdentityService).createOrganization('Medium')).id;
    scheduleId = (await ctx.get(SchedulesService).create(org, { name: 'Room' })).id;
  });

  it('writes a booking and its booking.created event together, and neither when the time overlaps', async () => {
    const first = await book({ scheduleId, ...at(0), attendee });
    expect(first.status).toBe('PENDING');
    await expect(bookings.create(org, { scheduleId, ...at(0, 30), attendee })).rejects.toMatchObject({ code: 'booking_overlap' });

    expect(await ctx.query('SELECT id FROM bookings WHERE organization_id = $1', [org])).toEqual([{ id: first.id }]);
    expect(await outbox('booking.created')).toEqual([{ id: first.id }]);
  });

  it('lets exactly one of many concurrent bookings of the same time through', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => bookings.create(org, { scheduleId, ...at(1), attendee })));
    const made = results.filter((r) => r.status === 'fulfilled');
    expect(made).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'booking_overlap' });
    expect(await ctx.query('SELECT count(*)::int AS n FROM bookings WHERE organization_id = $1', [org])).toEqual([{ n: 1 }]);
    expect(await outbox('booking.created')).toHaveLength(1);
  });

  it("keeps an event type's daily limit under concurrent bookings of different times", async () => {
    await ctx.get(SchedulesService).update(org, scheduleId, {
      availability: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
    });
    const type = await ctx.get(EventTypesService).create(org, { title: 'Call', duration: 60, maxBookingsPerDay: 2 });

    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => bookings.create(org, { scheduleId, eventTypeId: type.id, ...at(i), attendee })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'slot_unavailable', reason: 'daily_limit' });
    expect(await ctx.query('SELECT count(*)::int AS n FROM bookings WHERE organization_id = $1', [org])).toEqual([{ n: 2 }]);
    expect(await outbox('booking.created')).toHaveLength(2);

    // Another day has its own limit; outside the availability is refused whatever the count.
    const tuesday = { startTime: new Date('2026-11-24T10:00:00Z'), endTime: new Date('2026-11-24T11:00:00Z') };
    await expect(book({ scheduleId, eventTypeId: type.id, ...tuesday, attendee })).resolves.toMatchObject({ status: 'PENDING' });
    const evening = { startTime: new Date('2026-11-24T18:00:00Z'), endTime: new Date('2026-11-24T19:00:00Z') };
    await expect(bookings.create(org, { scheduleId, eventTypeId: type.id, ...evening, attendee })).rejects.toMatchObject({
      code: 'slot_unavailable',
      reason: 'outside_availability',
    });
  });

  it('moves through its state machine, announcing each move with the previous status, and refuses the rest', async () => {
    const booking = await book({ scheduleId, ...at(2), attendee });
    const confirmed = await bookings.update(org, booking.id, { status: 'CONFIRMED' });
    expect(confirmed.status).toBe('CONFIRMED');
    await expect(bookings.update(org, booking.id, { status: 'PENDING' })).rejects.toMatchObject({ code: 'invalid_transition' });
    const completed = await bookings.update(org, booking.id, { status: 'COMPLETED' });
    expect(completed.status).toBe('COMPLETED');
    await expect(bookings.cancel(org, booking.id)).rejects.toMatchObject({ code: 'invalid_transition' });

    expect(await ctx.query('SELECT status FROM bookings WHERE id = $1', [booking.id])).toEqual([{ status: 'COMPLETED' }]);
    expect(
      await ctx.query(`SELECT type, previous_status, data->>'status' AS status FROM outbox_events WHERE organization_id = $1 ORDER BY seq`, [org]),
    ).toEqual([
      { type: 'booking.created', previous_status: null, status: 'PENDING' },
      { type: 'booking.confirmed', previous_status: 'PENDING', status: 'CONFIRMED' },
      { type: 'booking.completed', previous_status: 'CONFIRMED', status: 'COMPLETED' },
    ]);
  });

  it('frees the time of a cancelled booking, and a second cancellation changes nothing', async () => {
    const booking = await book({ scheduleId, ...at(3), attendee });
    ctx.clock.set('2026-11-21T09:00:00Z');
    const cancelled = await bookings.cancel(org, booking.id);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelledAt: new Date('2026-11-21T09:00:00Z'), cancelledBy: 'api' });
    await bookings.cancel(org, booking.id);
    expect(await outbox('booking.cancelled')).toEqual([{ id: booking.id }]);

    await expect(book({ scheduleId, ...at(3), attendee })).resolves.toMatchObject({ status: 'PENDING' });
  });
});
