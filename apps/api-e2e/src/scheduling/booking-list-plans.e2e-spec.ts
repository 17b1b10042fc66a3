import { SqlClient } from '@almanac/shared';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { createEventType, createSchedule, SCHEDULING_TEST_CONFIG } from './scheduling-helpers';

/**
 * Each list filter is served by an index: the list query the API really runs is captured and
 * EXPLAINed on 40,000 bookings spread over 20 organizations.
 */
describe('booking list query plans (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let scheduleId: string;
  let eventTypeId: string;
  let captured: { sql: string; params: unknown[] } | null = null;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    const tenants: Tenant[] = [];
    for (let i = 0; i < 20; i++) tenants.push(await t.tenant());
    a = tenants[0]!;
    eventTypeId = await createEventType(t, a);
    for (const tenant of tenants) {
      const schedule = await createSchedule(t, tenant);
      if (tenant === a) scheduleId = schedule;
      await t.query(
        `INSERT INTO bookings (id, organization_id, schedule_id, event_type_id, start_time, end_time, timezone, status,
                               title, attendee_name, attendee_email, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, CASE WHEN g % 7 = 0 THEN $3::uuid END,
                timestamptz '2027-01-01' + g * interval '1 hour', timestamptz '2027-01-01' + g * interval '1 hour' + interval '30 minutes',
                'UTC', (ARRAY['PENDING','CONFIRMED','CANCELLED','COMPLETED','NO_SHOW'])[1 + g % 5], 'Booking', 'n',
                'user' || g || '@example' || (g % 97) || '.com', now(), now()
           FROM generate_series(1, 2000) g`,
        [tenant.orgId, schedule, tenant === a ? eventTypeId : null],
      );
    }
    // Statistics from every row (the default samples 30,000 of the 40,000 at random), so the plans
    // below are the same on every run.
    await t.query('SET default_statistics_target = 1000; ANALYZE bookings; RESET default_statistics_target');
    // And the trigram index's pending list merged into the index (GIN's fast update keeps new rows
    // aside until a vacuum, which autovacuum may or may not have run yet): its cost is then the same.
    await t.query('VACUUM bookings');
    const capture = (sql: string, params?: unknown[]): void => {
      if (/\) AS total FROM bookings/.test(sql)) captured = { sql, params: params ?? [] };
    };
    const original = t.dataSource.query.bind(t.dataSource);
    t.dataSource.query = (async (sql: string, params?: unknown[], runner?: unknown) => {
      capture(sql, params);
      return (original as (...args: unknown[]) => Promise<unknown>)(sql, params, runner);
    }) as typeof t.dataSource.query;
    // Statements outside transactions take SqlClient's thin path straight on the pool.
    const sqlClient = t.app.get(SqlClient);
    const thin = sqlClient.query.bind(sqlClient);
    sqlClient.query = (async (sql: string, params?: unknown[]) => {
      capture(sql, params);
      return thin(sql, params);
    }) as typeof sqlClient.query;
  });
  afterAll(async () => t.close());

  async function planOf(query: string): Promise<string> {
    captured = null;
    await t.api.get(`/api/v1/bookings${query}`).set(a.auth).expect(200);
    expect(captured).not.toBeNull();
    const rows = await t.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${captured!.sql}`, captured!.params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  it.each([
    ['', /bookings_start_idx|bookings_pkey/],
    ['?schedule_id=SCHEDULE', 'bookings_schedule_idx'],
    ['?event_type_id=EVENT_TYPE', 'bookings_event_type_idx'],
    ['?status=NO_SHOW', 'bookings_status_idx'],
    ['?start_date=2027-02-01&end_date=2027-02-02', 'bookings_start_idx'],
    // Every booking here is upcoming (all start in 2027): the planner may read the organization's rows
    // by the primary key's organization_id prefix and sort, or walk the start index; both are indexed.
    ['?upcoming=true', /bookings_start_idx|bookings_pkey/],
    ['?attendee_email=user123%40', 'bookings_attendee_email_trgm_idx'],
  ])('GET /api/v1/bookings%s uses %s', async (query, index) => {
    const plan = await planOf(query.replace('SCHEDULE', scheduleId).replace('EVENT_TYPE', eventTypeId));
    expect(plan).toMatch(index);
    expect(plan).not.toMatch(/Seq Scan on bookings/);
  });
});
