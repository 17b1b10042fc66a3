import { declaredEventTypes, declareEventTypes, eventTypeList, eventTypes, readScopeOf } from './event-types';

describe('the event types the contexts declare', () => {
  // A view made before any context declared, as a decorator evaluated early would hold it.
  const early = eventTypeList(['*']);

  it('lists them by reading scope, then context, then declaration, whatever order the contexts load in', () => {
    declareEventTypes('webhooks', { 'webhook.ping': 'webhooks:read' });
    declareEventTypes('blog', { 'post.created': 'posts:read', 'post.deleted': 'posts:read' });
    declareEventTypes('calendar-sync', { 'calendar.synced': 'webhooks:read' });
    declareEventTypes('scheduling', { 'booking.created': 'bookings:read', 'booking.cancelled': 'bookings:read' });
    declareEventTypes('events', { 'event.created': 'events:read', 'registration.created': 'events:read' });
    const expected = [
      'booking.created',
      'booking.cancelled',
      'event.created',
      'registration.created',
      'post.created',
      'post.deleted',
      'calendar.synced',
      'webhook.ping',
    ];
    expect(eventTypes()).toEqual(expected);
    expect(early).toEqual(['*', ...expected]);
    expect(eventTypeList()).toEqual(expected);
    expect(readScopeOf('registration.created')).toBe('events:read');
    expect(readScopeOf('booking.exploded')).toBeUndefined();
    expect(declaredEventTypes().get('calendar.synced')).toMatchObject({ context: 'calendar-sync', scope: 'webhooks:read' });
  });

  it('a type belongs to one context with one scope', () => {
    expect(() => declareEventTypes('scheduling', { 'booking.created': 'bookings:read' })).not.toThrow();
    expect(() => declareEventTypes('events', { 'booking.created': 'bookings:read' })).toThrow(
      'event type booking.created is already declared by scheduling (read with bookings:read)',
    );
    expect(() => declareEventTypes('scheduling', { 'booking.created': 'events:read' })).toThrow(/already declared/);
  });
});
