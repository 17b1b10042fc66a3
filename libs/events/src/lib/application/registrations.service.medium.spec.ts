import { IdentityModule, IdentityService } from '@almanac/identity';
import { createContextTest, type ContextTest } from '@almanac/shared/testing';
import { EventsModule } from '../events.module';
import { EventsService } from './events.service';
import { RegistrationsService } from './registrations.service';

// Registrations through their services and real repositories on the real database, without HTTP.
describe('RegistrationsService (medium)', () => {
  let ctx: ContextTest;
  let events: EventsService;
  let registrations: RegistrationsService;
  let org: string;

  const person = (i: number) => ({ name: `Person ${i}`, email: `p${i}@example.com` });
  const counts = (eventId: string) =>
    ctx.query('SELECT status, count(*)::int AS n FROM event_registrations WHERE event_id = $1 GROUP BY status ORDER BY status', [eventId]);
  const announced = () =>
    ctx.query<{ type: string; email: string }>(
      `SELECT type, data->>'email' AS email FROM outbox_events WHERE organization_id = $1 AND type LIKE 'registration.%' ORDER BY seq`,
      [org],
    );

  beforeAll(async () => {
    ctx = await createContextTest({ modules: [IdentityModule, EventsModule], now: new Date('2026-11-21T08:00:00Z') });
    events = ctx.get(EventsService);
    registrations = ctx.get(RegistrationsService);
  });
  afterAll(async () => ctx?.close());
  beforeEach(async () => {
    org = (await ctx.get(IdentityService).createOrganization('Medium')).id;
  });

  it('admits no more concurrent registrations than there are places, and refuses the rest', async () => {
    const event = await events.create(org, { title: 'Meetup', startDate: '2027-01-10', slots: 2, status: 'published' });
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => registrations.register(org, event.id, person(i))));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'event_full' });
    expect(await counts(event.id)).toEqual([{ status: 'active', n: 2 }]);
    expect((await events.get(org, event.id)).snapshot.registrationCount).toBe(2);
    expect(await announced()).toHaveLength(2);
  });

  it('puts the overflow on the waiting list in order, and promotes the oldest when a place frees', async () => {
    const event = await events.create(org, { title: 'Meetup', startDate: '2027-01-10', slots: 2, status: 'published', waitlistEnabled: true });
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await registrations.register(org, event.id, person(i)));

    expect(made.map((r) => [r.status, r.position])).toEqual([
      ['active', null],
      ['active', null],
      ['waitlisted', 1],
      ['waitlisted', 2],
      ['waitlisted', 3],
    ]);

    await registrations.cancel(org, event.id, made[0]!.id);
    expect(await registrations.get(org, event.id, made[2]!.id)).toMatchObject({ status: 'active', position: null });
    expect(await registrations.get(org, event.id, made[3]!.id)).toMatchObject({ status: 'waitlisted', position: 1 });

    // Cancelling a waiting registration promotes nobody: it only leaves the list.
    await registrations.cancel(org, event.id, made[3]!.id);
    expect(await registrations.get(org, event.id, made[4]!.id)).toMatchObject({ status: 'waitlisted', position: 1 });

    expect(await counts(event.id)).toEqual([
      { status: 'active', n: 2 },
      { status: 'cancelled', n: 2 },
      { status: 'waitlisted', n: 1 },
    ]);
    expect(await announced()).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => ({ type: 'registration.created', email: `p${i}@example.com` })),
      { type: 'registration.cancelled', email: 'p0@example.com' },
      { type: 'registration.promoted', email: 'p2@example.com' },
      { type: 'registration.cancelled', email: 'p3@example.com' },
    ]);
  });

  it('promotes waiting registrations when the event gets more places, in the same change', async () => {
    const event = await events.create(org, { title: 'Meetup', startDate: '2027-01-10', slots: 1, status: 'published', waitlistEnabled: true });
    for (let i = 0; i < 4; i++) await registrations.register(org, event.id, person(i));

    const updated = await events.update(org, event.id, { slots: 3 });
    expect(updated.snapshot).toMatchObject({ slots: 3, registrationCount: 3, waitlistCount: 1 });
    expect(await counts(event.id)).toEqual([
      { status: 'active', n: 3 },
      { status: 'waitlisted', n: 1 },
    ]);
    await expect(events.update(org, event.id, { slots: 2 })).rejects.toMatchObject({ code: 'slots_below_registrations' });
  });

  it('refuses a second active registration of the same e-mail, even when both race', async () => {
    const event = await events.create(org, { title: 'Meetup', startDate: '2027-01-10', status: 'published' });
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => registrations.register(org, event.id, person(7))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'already_registered' });
    expect(await counts(event.id)).toEqual([{ status: 'active', n: 1 }]);
  });

  it('admits registrations only to a published event', async () => {
    const event = await events.create(org, { title: 'Draft', startDate: '2027-01-10' });
    await expect(registrations.register(org, event.id, person(1))).rejects.toMatchObject({ code: 'event_not_open' });
    expect(await counts(event.id)).toEqual([]);
  });
});
