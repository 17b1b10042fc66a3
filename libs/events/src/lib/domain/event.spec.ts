import { InvalidTransitionError, ValidationFailedError } from '@almanac/shared/domain';
import { Event, EventProps } from './event';
import { EventFullError, EventNotOpenError, SlotsBelowRegistrationsError } from './event-errors';

const now = new Date('2026-11-21T10:00:00.000Z');
const ids = { id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a', organizationId: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9b' };

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationFailedError) return (error.errors ?? []).map((e) => e.field);
    throw error;
  }
  throw new Error('expected a validation error');
}

function withRegistrations(event: Event, registrationCount: number): Event {
  return Event.restore({ ...(event.snapshot as EventProps), registrationCount });
}

describe('Event', () => {
  it('applies the defaults of a new event', () => {
    const e = Event.create({ title: 'Meetup', startDate: '2026-12-01' }, ids, now).snapshot;
    expect(e).toMatchObject({
      status: 'draft',
      timezone: 'UTC',
      cost: 0,
      slots: null,
      description: null,
      startTime: null,
      endTime: null,
      location: null,
      siteId: null,
      registrationCount: 0,
      waitlistEnabled: false,
      waitlistCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    expect(e.startsAt.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(e.endsAt.toISOString()).toBe('2026-12-02T00:00:00.000Z');
  });

  it('reports every broken rule with its field', () => {
    expect(
      fieldsOf(() =>
        Event.create({ title: ' ', startDate: '2026-02-30', endTime: '10:00', timezone: 'Nowhere/Land', cost: 0.001, slots: 0 }, ids, now),
      ).sort(),
    ).toEqual(['cost', 'end_time', 'slots', 'start_date', 'timezone', 'title']);
  });

  it('recomputes the window when the timing changes', () => {
    const event = Event.create({ title: 'T', startDate: '2026-12-01', startTime: '10:00', endTime: '11:00' }, ids, now);
    const later = new Date(now.getTime() + 1000);
    expect(event.update({ timezone: 'Asia/Tokyo' }, later)).toBe(true);
    expect(event.snapshot.startsAt.toISOString()).toBe('2026-12-01T01:00:00.000Z');
    expect(event.snapshot.endsAt.toISOString()).toBe('2026-12-01T02:00:00.000Z');
    expect(event.snapshot.updatedAt).toBe(later);
  });

  it('checks end_time against the merged state', () => {
    const event = Event.create({ title: 'T', startDate: '2026-12-01', startTime: '10:00', endTime: '11:00' }, ids, now);
    expect(fieldsOf(() => event.update({ startTime: null }, now))).toEqual(['end_time']);
    expect(fieldsOf(() => event.update({ startTime: '12:00' }, now))).toEqual(['end_time']);
    expect(event.update({ startTime: null, endTime: null }, now)).toBe(true);
  });

  it('treats a change to the current values as a no-op', () => {
    const event = Event.create({ title: 'T', startDate: '2026-12-01', status: 'cancelled' }, ids, now);
    expect(event.update({ title: 'T', status: 'cancelled' }, new Date())).toBe(false);
    expect(event.snapshot.updatedAt).toBe(now);
  });

  it('keeps cancelled final', () => {
    const event = Event.create({ title: 'T', startDate: '2026-12-01', status: 'cancelled' }, ids, now);
    expect(() => event.update({ status: 'published' }, now)).toThrow(InvalidTransitionError);
    expect(event.snapshot.status).toBe('cancelled');
  });

  it('refuses slots below the active registrations', () => {
    const event = withRegistrations(Event.create({ title: 'T', startDate: '2026-12-01', slots: 10 }, ids, now), 4);
    expect(() => event.update({ slots: 3 }, now)).toThrow(SlotsBelowRegistrationsError);
    expect(event.update({ slots: 4 }, now)).toBe(true);
    expect(event.slotsRemaining).toBe(0);
    expect(event.update({ slots: null }, now)).toBe(true);
    expect(event.slotsRemaining).toBeNull();
  });

  it('accepts registrations only when published and not full', () => {
    const draft = Event.create({ title: 'T', startDate: '2026-12-01', slots: 2 }, ids, now);
    expect(() => draft.admitRegistration()).toThrow(EventNotOpenError);
    const open = Event.create({ title: 'T', startDate: '2026-12-01', slots: 2, status: 'published' }, ids, now);
    expect(open.admitRegistration()).toBe('active');
    expect(() => withRegistrations(open, 2).admitRegistration()).toThrow(EventFullError);
    const unlimited = Event.create({ title: 'T', startDate: '2026-12-01', status: 'published' }, ids, now);
    expect(withRegistrations(unlimited, 10_000).admitRegistration()).toBe('active');
  });

  it('puts registrations on the waiting list when full and the event keeps one', () => {
    const open = Event.create({ title: 'T', startDate: '2026-12-01', slots: 2, status: 'published', waitlistEnabled: true }, ids, now);
    expect(open.admitRegistration()).toBe('active');
    expect(withRegistrations(open, 2).admitRegistration()).toBe('waitlisted');
    const draft = Event.create({ title: 'T', startDate: '2026-12-01', slots: 2, waitlistEnabled: true }, ids, now);
    expect(() => withRegistrations(draft, 2).admitRegistration()).toThrow(EventNotOpenError);
  });
});
