import { IdentityModule, IdentityService } from '@almanac/identity';
import { createContextTest, type ContextTest } from '@almanac/shared/testing';
import { BlogModule } from '../blog.module';
import { PostRevisionsService } from './post-revisions.service';
import { type Actor, PostsService } from './posts.service';
import { ScheduledPostPublisher } from './scheduled-post-publisher';

// Posts through their services and real repositories on the real database, without HTTP.
describe('PostsService (medium)', () => {
  let ctx: ContextTest;
  let posts: PostsService;
  let revisions: PostRevisionsService;
  let publisher: ScheduledPostPublisher;
  let actor: Actor;

  const announced = () =>
    ctx.query<{ type: string; slug: string; status: string }>(
      `SELECT type, data->>'slug' AS slug, data->>'status' AS status FROM outbox_events WHERE organization_id = $1 ORDER BY seq`,
      [actor.organizationId],
    );

  beforeAll(async () => {
    ctx = await createContextTest({ modules: [IdentityModule, BlogModule], now: new Date('2026-11-21T08:00:00Z') });
    posts = ctx.get(PostsService);
    revisions = ctx.get(PostRevisionsService);
    publisher = ctx.get(ScheduledPostPublisher);
    // The test publishes when it says so, not on the publisher's timer.
    await publisher.stop();
  });
  afterAll(async () => ctx?.close());
  beforeEach(async () => {
    actor = { organizationId: (await ctx.get(IdentityService).createOrganization('Medium')).id, userId: null };
  });

  it('keeps a slug unique in its organization, even between concurrent creates, and writes nothing for the losers', async () => {
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => posts.create(actor, { title: `Take ${i}`, slug: 'hello' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'slug_taken' });
    expect(await ctx.query('SELECT count(*)::int AS n FROM posts WHERE organization_id = $1', [actor.organizationId])).toEqual([{ n: 1 }]);
    expect(await ctx.query('SELECT count(*)::int AS n FROM post_revisions WHERE organization_id = $1', [actor.organizationId])).toEqual([{ n: 1 }]);
    expect(await announced()).toEqual([{ type: 'post.created', slug: 'hello', status: 'draft' }]);

    const other = { organizationId: (await ctx.get(IdentityService).createOrganization('Other')).id, userId: null };
    await expect(posts.create(other, { title: 'Mine too', slug: 'hello' })).resolves.toMatchObject({ slug: 'hello' });
    const second = await posts.create(actor, { title: 'Second', slug: 'second' });
    await expect(posts.update(actor, second.id, { slug: 'hello' })).rejects.toMatchObject({ code: 'slug_taken' });
  });

  it('publishes a scheduled post once its time comes, once, with its revision and post.published', async () => {
    const post = await posts.create(actor, { title: 'Soon', slug: 'soon', status: 'scheduled', publishedAt: new Date('2026-11-21T10:00:00Z') });
    expect(post.status).toBe('scheduled');
    expect(await publisher.publishDue()).toEqual([]);

    ctx.clock.set('2026-11-21T10:00:00Z');
    // Overdue, it already reads as published before the publisher has run.
    expect((await posts.get(actor.organizationId, post.id)).status).toBe('published');
    const [first, again] = await Promise.all([publisher.publishDue(), publisher.publishDue()]);
    expect([...first!, ...again!]).toEqual([post.id]);
    expect(await publisher.publishDue()).toEqual([]);

    expect(await ctx.query('SELECT status FROM posts WHERE id = $1', [post.id])).toEqual([{ status: 'published' }]);
    expect(await announced()).toEqual([
      { type: 'post.created', slug: 'soon', status: 'scheduled' },
      { type: 'post.published', slug: 'soon', status: 'published' },
    ]);
    const history = await revisions.list(actor.organizationId, post.id, { limit: 10, offset: 0 });
    expect(history.items.map((r) => r.status).sort()).toEqual(['published', 'scheduled']);
    ctx.clock.set('2026-11-21T08:00:00Z');
  });

  it('records a revision for each change of a stored field, and restores one as a new revision', async () => {
    const post = await posts.create(actor, { title: 'First title', slug: 'story', excerpt: 'One' });
    await posts.update(actor, post.id, { title: 'Second title' });
    await posts.update(actor, post.id, { excerpt: 'Two' });
    // The same values again change no stored field: no revision.
    await posts.update(actor, post.id, { excerpt: 'Two' });

    const history = await revisions.list(actor.organizationId, post.id, { limit: 10, offset: 0 });
    expect(history.total).toEqual({ count: 3, isLowerBound: false });
    const oldest = history.items.find((r) => r.title === 'First title')!;
    expect(await revisions.get(actor.organizationId, post.id, oldest.id)).toMatchObject({ title: 'First title', excerpt: 'One', slug: 'story' });

    const restored = await revisions.restore(actor, post.id, oldest.id);
    expect(restored).toMatchObject({ title: 'First title', excerpt: 'One' });
    expect(await ctx.query('SELECT title, excerpt FROM posts WHERE id = $1', [post.id])).toEqual([{ title: 'First title', excerpt: 'One' }]);
    expect((await revisions.list(actor.organizationId, post.id, { limit: 10, offset: 0 })).total).toEqual({ count: 4, isLowerBound: false });
  });
});
