#!/usr/bin/env node
// The CPU one request pays for the metrics (METRICS_TOKEN set): the front-door step that counts and
// times it, run on its own against the built app's own Metrics, with the route Express matched. On a
// shared machine this figure holds up where requests per second do not; compare it with the API's
// CPU per request that `npm run bench` prints for the same route.
//   npm run build && node -r ./tools/register-paths.js tools/bench/metrics-cost.js [--requests=N]
const { EventEmitter } = require('node:events');
const { Metrics, routeTemplates } = require('@almanac/shared');

const requests = Number((/^--requests=(\d+)$/.exec(process.argv[2] ?? '') ?? [])[1] ?? 1_000_000);
const metrics = new Metrics(true);
const step = metrics.frontDoorStep(routeTemplates(() => undefined));
const routes = ['/api/v1/bookings/:id', '/api/v1/bookings', '/api/v1/events', '/api/v1/posts'];

function once(i) {
  const req = { method: 'GET', url: `/api/v1/bookings/${i}`, route: { path: routes[i % routes.length] } };
  const res = new EventEmitter();
  res.statusCode = i % 50 === 0 ? 404 : 200;
  step(req, res);
  res.emit('finish');
}

function measure(n) {
  const started = process.cpuUsage();
  for (let i = 0; i < n; i++) once(i);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / n;
}

// The same loop without the step: what a request costs here anyway (the objects, the event).
function baseline(n) {
  const started = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = new EventEmitter();
    res.statusCode = 200;
    res.once('finish', () => undefined);
    res.emit('finish');
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / n;
}

measure(requests / 10);
baseline(requests / 10);
const results = [];
for (let round = 0; round < 5; round++) results.push(measure(requests) - baseline(requests));
results.sort((a, b) => a - b);
process.stdout.write(
  `metrics front-door step: ${(results[2] / 1000).toFixed(2)} µs of CPU per request (median of 5 rounds of ${requests}; rounds ${results
    .map((r) => (r / 1000).toFixed(2))
    .join(', ')})\n`,
);
