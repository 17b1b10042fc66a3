'use strict';
// CPU per slots query, without HTTP or the database: the bench's 62-day case (a schedule open on
// weekdays 08:00–20:00 in Paris, 5,000 bookings every 30 minutes, a 10-minute type on a 5-minute
// grid with a daily limit, the schedule with a weekly limit of booked minutes) computed N times by the
// built domain code (the limits' ledger built once per query, as the service does), then turned into the answer's
// JSON as the controller does. process.cpuUsage() measures it, so the figure holds on a busy machine.
//   npm run build && node tools/bench/slots-cpu.js [--runs=200]

require('../register-paths');
const path = require('node:path');
const ROOT = path.resolve(__dirname, '..', '..');
const { availableSlots, busyTimesOf } = require(path.join(ROOT, 'dist/libs/scheduling/src/lib/domain/slots'));
const limits = require(path.join(ROOT, 'dist/libs/scheduling/src/lib/domain/booking-limits'));
require('reflect-metadata');
const { SlotsController } = require(path.join(ROOT, 'dist/libs/scheduling/src/lib/api/slots.controller'));

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function benchCase(now) {
  const start = Math.ceil(now / DAY) * DAY + DAY;
  const busy = [];
  for (let i = 0; i < 5000; i++) {
    const s = start + 5 * MINUTE + i * 30 * MINUTE;
    busy.push({ start: s, end: s + 20 * MINUTE, bufferBefore: 0, bufferAfter: 0, sameEventType: (i + 1) % 3 === 0 });
  }
  const rules = {
    duration: 10,
    bufferBefore: 0,
    bufferAfter: 0,
    minimumNotice: 0,
    slotInterval: 5,
    bookingWindowDays: null,
    maxBookingsPerDay: 20,
    maxBookingsPerWeek: null,
    maxBookingsPerMonth: null,
    maxBookedMinutesPerDay: null,
    maxBookedMinutesPerWeek: null,
  };
  const schedule = { maxBookingsPerDay: null, maxBookingsPerWeek: null, maxBookedMinutesPerDay: null, maxBookedMinutesPerWeek: 100000 };
  return {
    limitsOf: limitOnOf(rules, schedule, busy, start, start + 62 * DAY),
    availability: { weekly: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '08:00', end: '20:00' }], overrides: [] },
    scheduleTimeZone: 'Europe/Paris',
    timeZone: 'Europe/Paris',
    rules,
    from: start,
    to: start + 62 * DAY,
    now,
    busy: busyTimesOf(busy),
  };
}

/**
 * The limits of the query: the periods' totals (the database's one count, here counted once in
 * memory), from which each query builds its ledger as the service does.
 */
function limitOnOf(rules, schedule, bookings, from, to) {
  const set = { eventType: rules, schedule };
  const zone = limits.zoneForPeriods('Europe/Paris', from, to);
  const days = [];
  for (let day = limits.localDayOf(zone, from) - 1; day <= limits.localDayOf(zone, to) + 1; day++) days.push(day);
  const counted = limits.periodsToCount(set, days).map((period) => {
    const span = limits.periodSpan(zone, period);
    const inside = bookings.filter((b) => b.start >= span.start && b.start < span.end);
    const sameType = inside.filter((b) => b.sameEventType);
    const minutes = (list) => list.reduce((sum, b) => sum + (b.end - b.start) / MINUTE, 0);
    return { period, totals: { bookings: inside.length, minutes: minutes(inside), typeBookings: sameType.length, typeMinutes: minutes(sameType) } };
  });
  return () => {
    const ledger = new limits.LimitLedger(set, counted);
    return (day) => ledger.reasonFor(day, rules.duration);
  };
}

/** One query's domain work: the limits' ledger, then the slots. */
function slotsOf(query) {
  return availableSlots({ ...query, limitOn: query.limitsOf() });
}

/** The answer as the controller builds it (its service computing the slots here), then its JSON. */
async function answer(query) {
  const controller = new SlotsController({ list: async () => ({ slots: slotsOf(query), timezone: query.timeZone }) });
  const body = await controller.list({ organizationId: 'bench' }, { event_type_id: 'x', schedule_id: 'y' });
  return JSON.stringify(body);
}

async function main() {
  const runs = Number(/--runs=(\d+)/.exec(process.argv.slice(2).join(' '))?.[1] ?? 200);
  const query = benchCase(Date.parse('2026-11-25T12:00:00Z'));
  let slots = slotsOf(query);
  let bytes = 0;
  for (let i = 0; i < 50; i++) bytes = (await answer(query)).length;

  const compute = process.cpuUsage();
  for (let i = 0; i < runs; i++) slots = slotsOf(query);
  const computeUs = process.cpuUsage(compute);
  const full = process.cpuUsage();
  for (let i = 0; i < runs; i++) bytes = (await answer(query)).length;
  const fullUs = process.cpuUsage(full);
  const per = (u) => ((u.user + u.system) / runs).toFixed(0);
  process.stdout.write(
    `${slots.length} slots, ${bytes} bytes of JSON; µs of CPU per query over ${runs}: slots ${per(computeUs)}, slots + answer ${per(fullUs)}\n`,
  );
}

main();
