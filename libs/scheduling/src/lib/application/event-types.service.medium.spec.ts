import { IdentityModule, IdentityService } from '@almanac/identity';
import { createContextTest, type ContextTest } from '@almanac/shared/testing';
import { SchedulingModule } from '../scheduling.module';
import { EventTypesService } from './event-types.service';

// Event types through their service and real repository on the real database, without HTTP.
describe('EventTypesService (medium)', () => {
  let ctx: ContextTest;
  let eventTypes: EventTypesService;
  let org: string;

  beforeAll(async () => {
    ctx = await createContextTest({ modules: [IdentityModule, SchedulingModule], now: new Date('2026-11-21T08:00:00Z') });
    eventTypes = ctx.get(EventTypesService);
  });
  afterAll(async () => ctx?.close());
  beforeEach(async () => {
    org = (await ctx.get(IdentityService).createOrganization('Medium')).id;
  });

  it('gives concurrent creates of one title distinct slugs, the first free suffixes in turn', async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => eventTypes.create(org, { title: 'Intro call', duration: 30 })));
    expect(made.map((t) => t.slug).sort()).toEqual(['intro-call', 'intro-call-2', 'intro-call-3', 'intro-call-4', 'intro-call-5', 'intro-call-6']);
    expect(await ctx.query('SELECT count(DISTINCT slug)::int AS n FROM event_types WHERE organization_id = $1', [org])).toEqual([{ n: 6 }]);
  });

  it('refuses a supplied slug that is taken, and a rename onto one', async () => {
    const first = await eventTypes.create(org, { title: 'One', duration: 30, slug: 'one' });
    await expect(eventTypes.create(org, { title: 'Other', duration: 30, slug: 'one' })).rejects.toMatchObject({ code: 'slug_taken' });
    const second = await eventTypes.create(org, { title: 'Two', duration: 30 });
    await expect(eventTypes.update(org, second.id, { slug: 'one' })).rejects.toMatchObject({ code: 'slug_taken' });
    expect(await ctx.query('SELECT id, slug FROM event_types WHERE organization_id = $1 ORDER BY slug', [org])).toEqual([
      { id: first.id, slug: 'one' },
      { id: second.id, slug: 'two' },
    ]);
  });

  it('stores the defaults a new type gets, and a PATCH changes only what it names', async () => {
    const made = await eventTypes.create(org, { title: 'Call', duration: 45, bufferBefore: 10 });
    expect(made).toMatchObject({ locationType: 'video', requiresApproval: false, isActive: true, bufferBefore: 10, bufferAfter: 0, maxBookingsPerDay: null });
    ctx.clock.set('2026-11-21T09:00:00Z');
    const updated = await eventTypes.update(org, made.id, { maxBookingsPerDay: 3 });
    expect(updated).toEqual({ ...made, maxBookingsPerDay: 3, updatedAt: new Date('2026-11-21T09:00:00Z') });
    expect(await eventTypes.get(org, made.id)).toEqual(updated);
    ctx.clock.set('2026-11-21T08:00:00Z');
  });
});
