'use strict';
// The routes the floor answers: the ones under load.

const bookings = require('./bookings');
const events = require('./events');
const posts = require('./posts');
const slots = require('./slots');

/** [method, path pattern, scope, handler, conditional]: `:x` segments are path parameters; a conditional route's answers carry an ETag (as `@Conditional()`). */
const ROUTES = [
  ['GET', '/api/v1/bookings', 'bookings:read', bookings.list],
  ['GET', '/api/v1/bookings/:id', 'bookings:read', bookings.get, true],
  ['POST', '/api/v1/bookings', 'bookings:write', bookings.create],
  ['PATCH', '/api/v1/bookings/:id', 'bookings:write', bookings.update, true],
  ['GET', '/api/v1/events', 'events:read', events.list],
  ['POST', '/api/v1/events/:eventId/registrations', 'events:write', events.register],
  ['GET', '/api/v1/posts', 'posts:read', posts.list],
  ['GET', '/api/v1/slots', 'bookings:read', slots.list],
].map(([method, pattern, scope, handler, conditional = false]) => ({ method, segments: pattern.split('/'), scope, handler, conditional }));

function route(method, path) {
  const segments = path.split('/');
  for (const candidate of ROUTES) {
    if (candidate.method !== method || candidate.segments.length !== segments.length) continue;
    const params = {};
    let matched = true;
    for (let i = 0; i < segments.length; i++) {
      const expected = candidate.segments[i];
      if (expected.startsWith(':')) params[expected.slice(1)] = decodeURIComponent(segments[i]);
      else if (expected !== segments[i]) {
        matched = false;
        break;
      }
    }
    if (matched) return { route: candidate, params };
  }
  return null;
}

module.exports = { route };
