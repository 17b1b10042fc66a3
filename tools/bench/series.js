'use strict';
// npm run bench:series: a recurring series of 52 weekly occurrences (POST /api/v1/bookings with
// recurrence), on a schedule with availability (Europe/Paris, weekdays 08:00–18:00) and an event type
// with buffers and a daily limit, holding 5,000 bookings (--bookings=N) over the next two years: every
// occurrence is checked against availability, notice, window of days, the daily limit and overlaps
// with buffers, then all are written. One client, --requests creates after a warm-up; each series is
// cancelled (DELETE /api/v1/booking-series/{id}, also measured) before the next is made at the same
// time. Target: create p95 < 100 ms. Writes bench/results/series.md with the machine's load average.

const { request } = require('node:http');
const os = require('node:os');
const { Temporal } = require('temporal-polyfill');
const { parseArgs, startDatabase, createTenant, startServer, writeReport } = require('./standalone');

const args = parseArgs(process.argv.slice(2));
const REQUESTS = Number(args.requests ?? 200);
const BOOKINGS = Number(args.bookings ?? 5000);
const WARMUP = 20;

function send(method, url, headers, body) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      { method, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            body: text ? JSON.parse(text) : null,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const stats = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { p50: at(50).toFixed(2), p95: at(95).toFixed(2), p99: at(99).toFixed(2) };
};

async function main() {
  const database = await startDatabase('series', args);
  const { db } = database;
  const tenant = await createTenant(db, ['bookings:read', 'bookings:write']);
  const availability = JSON.stringify([
    { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '08:00', end: '18:00' },
  ]);
  const [schedule] = (
    await db.query(
      `INSERT INTO schedules (id, organization_id, name, timezone, availability, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, 'Bench room', 'Europe/Paris', $2::jsonb, now(), now()) RETURNING id`,
      [tenant.orgId, availability],
    )
  ).rows;
  const [eventType] = (
    await db.query(
      `INSERT INTO event_types (id, organization_id, title, slug, duration, buffer_before, buffer_after, max_bookings_per_day, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, 'Consultation', 'consultation', 20, 5, 5, 50, now(), now()) RETURNING id`,
      [tenant.orgId],
    )
  ).rows;
  // BOOKINGS half-hour bookings of the type on the hour, 08:00–17:00 Paris time, weekdays from
  // tomorrow on (ten a day: 5,000 fill about two years), with the type's buffers.
  await db.query(
    `INSERT INTO bookings (id, organization_id, schedule_id, event_type_id, start_time, end_time, timezone, status, title,
                           attendee_name, attendee_email, metadata, buffer_before, buffer_after, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, $3, s, s + interval '30 minutes', 'Europe/Paris', (ARRAY['PENDING','CONFIRMED'])[1 + n % 2],
            'Consultation', 'Attendee ' || n, 'a' || n || '@example.com', '{}', 5, 5, now(), now()
       FROM (SELECT row_number() OVER (ORDER BY d, h) AS n, ((d::date + make_time(h, 0, 0)) AT TIME ZONE 'Europe/Paris') AS s
               FROM generate_series(date_trunc('day', now()) + interval '1 day', date_trunc('day', now()) + interval '3 years', interval '1 day') d,
                    generate_series(8, 17) h
              WHERE extract(isodow FROM d) < 6) slots
      WHERE n <= $4`,
    [tenant.orgId, schedule.id, eventType.id, BOOKINGS],
  );
  await db.query('VACUUM ANALYZE bookings');
  const [{ count }] = (
    await db.query('SELECT count(*)::int AS count FROM bookings WHERE schedule_id = $1', [schedule.id])
  ).rows;

  const server = await startServer(database, { WEBHOOK_DISPATCHER: 'false' });
  const { base } = server;
  const auth = tenant.auth;
  // Next Monday 10:40–10:50 Paris time (between the hourly bookings and their buffers), weekly, 52 times.
  const today = Temporal.Now.plainDateISO('Europe/Paris');
  const monday = today.add({ days: 8 - today.dayOfWeek });
  const at = (time) =>
    monday.toZonedDateTime({ timeZone: 'Europe/Paris', plainTime: time }).toInstant().toString();
  const body = {
    schedule_id: schedule.id,
    event_type_id: eventType.id,
    start_time: at('10:40'),
    end_time: at('10:50'),
    timezone: 'Europe/Paris',
    attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    recurrence: { frequency: 'weekly', count: 52 },
  };
  const creates = [];
  const cancels = [];
  try {
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const created = await send('POST', `${base}/api/v1/bookings`, auth, body);
      if (created.status !== 201 || created.body.data.bookings.length !== 52) {
        throw new Error(
          `the series answered ${created.status}: ${JSON.stringify(created.body).slice(0, 500)}`,
        );
      }
      const cancelled = await send(
        'DELETE',
        `${base}/api/v1/booking-series/${created.body.data.series_id}`,
        auth,
      );
      if (cancelled.status !== 200 || cancelled.body.data.cancelled !== 52)
        throw new Error(`the cancellation answered ${cancelled.status}`);
      if (i >= WARMUP) {
        creates.push(created.ms);
        cancels.push(cancelled.ms);
      }
    }
  } finally {
    await server.stop();
  }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const create = stats(creates);
  const cancel = stats(cancels);
  const report = [
    `# Recurring series (npm run bench:series), ${new Date().toISOString()}`,
    '',
    `Machine: ${os.cpus().length} cores, load average ${load} (1, 5, 15 min) at the end of the run. Built server, embedded PostgreSQL, one client, ${REQUESTS} requests each after ${WARMUP} warm-up.`,
    `Schedule with availability (Europe/Paris, weekdays 08:00–18:00) holding ${count.toLocaleString('en')} bookings of an event type with 5-minute buffers and a daily limit; each series: 52 weekly occurrences of 10 minutes between them, all fitting.`,
    '',
    '| request | p50 ms | p95 ms | p99 ms | target |',
    '|---|---:|---:|---:|---|',
    `| POST /api/v1/bookings with recurrence (52 occurrences checked and created) | ${create.p50} | ${create.p95} | ${create.p99} | p95 < 100 ${Number(create.p95) < 100 ? '✓' : '✗'} |`,
    `| DELETE /api/v1/booking-series/{id} (52 cancelled, one event each) | ${cancel.p50} | ${cancel.p95} | ${cancel.p99} | |`,
    '',
  ].join('\n');
  writeReport('series.md', report);
  await database.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
