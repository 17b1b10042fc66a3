import type { Tenant, TestApp } from '../support/test-app';

export const BOOKING_FIELDS = [
  'id',
  'schedule_id',
  'event_type_id',
  'start_time',
  'end_time',
  'timezone',
  'status',
  'title',
  'location',
  'location_type',
  'attendee_name',
  'attendee_email',
  'attendee_phone',
  'attendee_timezone',
  'attendee_notes',
  'metadata',
  'created_at',
  'updated_at',
  'cancelled_at',
  'buffer_before',
  'buffer_after',
  'cancellation_reason',
  'cancelled_by',
  'series_id',
].sort();

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';

/** Many requests per key in one file: the per-key rate limit must not be what a test measures. */
export const SCHEDULING_TEST_CONFIG = { rateLimitPerMinute: 1_000_000 };

export async function createSchedule(t: TestApp, a: Tenant, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api
    .post('/api/v1/schedules')
    .set(a.auth)
    .send({ name: 'Room', ...body })
    .expect(201);
  return res.body.data.id as string;
}

export async function createEventType(t: TestApp, a: Tenant, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api
    .post('/api/v1/event-types')
    .set(a.auth)
    .send({ title: 'Intro call', duration: 30, ...body })
    .expect(201);
  return res.body.data.id as string;
}

/** An hour-long slot on 2027-03-01 (UTC), `n` hours after 00:00 (n may exceed 23). */
export function slot(n: number, minutes = 60): { start_time: string; end_time: string } {
  const start = Date.UTC(2027, 2, 1) + n * 3_600_000;
  return { start_time: new Date(start).toISOString(), end_time: new Date(start + minutes * 60_000).toISOString() };
}

export function bookingBody(scheduleId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schedule_id: scheduleId,
    ...slot(0),
    attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    ...extra,
  };
}

export async function createBooking(
  t: TestApp,
  a: Tenant,
  scheduleId: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, extra)).expect(201);
  // The booking as every other answer shows it: the manage token is the create answer's alone.
  const { manage_token: token, ...booking } = res.body.data as Record<string, any>;
  expect(token).toMatch(/^bkt_[0-9A-Za-z]{32}$/);
  return booking;
}

export function fieldsOf(problem: { errors?: { field: string }[] }): string[] {
  return (problem.errors ?? []).map((e) => e.field);
}
