import type { INestApplication } from '@nestjs/common';
import type { IfMatchHeader } from '@almanac/shared';
import type { ApiPrincipal } from '@almanac/identity';
import type { Response } from 'express';
import { BookingsController } from '../../../libs/scheduling/src/lib/api/bookings.controller';
import { ReservationsController } from '../../../libs/scheduling/src/lib/api/reservations.controller';
import { SlotsController } from '../../../libs/scheduling/src/lib/api/slots.controller';
import { EventsController } from '../../../libs/events/src/lib/api/events.controller';
import { RegistrationsController } from '../../../libs/events/src/lib/api/registrations.controller';
import { PostsController } from '../../../libs/blog/src/lib/api/posts.controller';

/** What the floor hands a controller method, once the request passed the same checks as in the API. */
export interface FloorCall {
  principal: ApiPrincipal;
  /** Path parameters, valid for their documented schema. */
  params: Record<string, string>;
  /**
   * The query (documented parameters only, converted like `@QueryInt`/`@QueryBoolean`) and the body,
   * both valid for the operation's schemas in the app's OpenAPI document. Typed `never` so that they
   * pass as the controller's DTO: the document, not a class, is what the floor checked them against.
   */
  query: never;
  body: never;
  ifMatch: IfMatchHeader;
  /** Collects the headers a controller sets (`Location`). */
  response: Response;
}

export interface FloorRoute {
  method: string;
  /** The OpenAPI path template. */
  path: string;
  /** The resource each path parameter names: a malformed id answers 404 as `UuidParam(resource)` does. */
  resources?: Record<string, string>;
  call(request: FloorCall): Promise<unknown>;
}

/**
 * The benchmarked routes, each answered by the app's own controller method (the real mapping of the
 * request to a command, the real service, repository and mapper): only Nest's and Express's work
 * around the call is left out. A controller whose signature changes stops this file compiling.
 */
export function floorRoutes(app: INestApplication): FloorRoute[] {
  const bookings = app.get(BookingsController);
  const slots = app.get(SlotsController);
  const reservations = app.get(ReservationsController);
  const events = app.get(EventsController);
  const registrations = app.get(RegistrationsController);
  const posts = app.get(PostsController);
  return [
    { method: 'GET', path: '/api/v1/bookings', call: (r) => bookings.list(r.principal, r.query) },
    { method: 'GET', path: '/api/v1/bookings/{id}', resources: { id: 'Booking' }, call: (r) => bookings.get(r.principal, r.params['id']!) },
    { method: 'POST', path: '/api/v1/bookings', call: (r) => bookings.create(r.principal, r.body, r.response) },
    {
      method: 'PATCH',
      path: '/api/v1/bookings/{id}',
      resources: { id: 'Booking' },
      call: (r) => bookings.update(r.principal, r.params['id']!, r.body, r.ifMatch),
    },
    { method: 'GET', path: '/api/v1/slots', call: (r) => slots.list(r.principal, r.query) },
    { method: 'POST', path: '/api/v1/slots/reservations', call: (r) => reservations.create(r.principal, r.body, r.response) },
    { method: 'GET', path: '/api/v1/events', call: (r) => events.list(r.principal, r.query) },
    {
      method: 'POST',
      path: '/api/v1/events/{eventId}/registrations',
      resources: { eventId: 'Event' },
      call: (r) => registrations.create(r.principal, r.params['eventId']!, r.body, r.response),
    },
    { method: 'GET', path: '/api/v1/posts', call: (r) => posts.list(r.principal, r.query) },
  ];
}
