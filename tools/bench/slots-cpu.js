'use strict';
// CPU per slots query, without HTTP or the database: the bench's 62-day case (a schedule open on
// weekdays 08:00–20:00 in Paris, 5,000 bookings every 30 minutes, a 10-minute type on a 5-minute
// grid with a daily limit) computed N times by the built domain code, then turned into the answer's
// JSON as the controller does. process.cpuUsage() measures it, so the figure holds on a busy machine.
//   npm run build && node tools/bench/slots-cpu.js [--runs=200]

require('../register-paths');
const path = require('node:path');
const ROOT = path.resolve(__dirname, '..', '..');
const { availableSlots, busyTimesOf } = require(path.join(ROOT, 'dist/libs/scheduling/src/lib/domain/slots'));
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
  return {
    availability: { weekly: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '08:00', end: '20:00' }], overrides: [] },
    scheduleTimeZone: 'Europe/Paris',
    timeZone: 'Europe/Paris',
    rules: {
      duration: 10,
      bufferBefore: 0,
      bufferAfter: 0,
      minimumNotice: 0,
      slotInterval: 5,
      bookingWindowDays: null,
      maxBookingsPerDay: 20,
    },
    from: start,
    to: start + 62 * DAY,
    now,
    busy: busyTimesOf(busy),
  };
}

/** The answer as the controller builds it (its service computing the slots here), then its JSON. */
async function answer(query) {
  const controller = new SlotsController({ list: async () => ({ slots: availableSlots(query), timezone: query.timeZone }) });
  const body = await controller.list({ organizationId: 'bench' }, { event_type_id: 'x', schedule_id: 'y' });
  return JSON.stringify(body);
}

async function main() {
  const runs = Number(/--runs=(\d+)/.exec(process.argv.slice(2).join(' '))?.[1] ?? 200);
  const query = benchCase(Date.parse('2026-11-25T12:00:00Z'));
  let slots = availableSlots(query);
  let bytes = 0;
  for (let i = 0; i < 50; i++) bytes = (await answer(query)).length;

  const compute = process.cpuUsage();
  for (let i = 0; i < runs; i++) slots = availableSlots(query);
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
