import { createHash } from 'node:crypto';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures } from './blog-fixtures';

const MISSING = '0194a7a0-0000-7000-8000-0000000000cc';
const TOKEN_URL = /^http:\/\/localhost:3000\/public\/v1\/previews\/([0-9A-Za-z]{32})$/;

describe('post preview links (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  let other: Tenant;
  const start = new Date('2026-11-21T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
    f = blogFixtures(t);
    t.clock.set(start);
    a = await t.tenant();
    other = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  const link = async (postId: string, body?: Record<string, unknown>) => {
    const req = t.api.post(`/api/v1/posts/${postId}/preview-link`).set(a.auth);
    const res = await (body ? req.send(body) : req).expect(201);
    const token = TOKEN_URL.exec(res.body.data.url)![1]!;
    return { res, token, path: `/public/v1/previews/${token}` };
  };

  it('gives a secret address (only its hash stored) that shows a draft, live, as its GET does, with no key', async () => {
    const post = await f.post(a, { title: 'Draft in progress', content: [{ type: 'paragraph', text: 'first' }] });
    const { res, token, path } = await link(post['id']);
    expect(res.body).toEqual({ data: { url: `http://localhost:3000${path}`, expires_at: new Date(start.getTime() + 1440 * 60_000).toISOString() } });
    expect(res.headers['location']).toBe(path);
    const rows = await t.query<{ token_hash: string }>('SELECT token_hash FROM post_preview_links WHERE post_id = $1', [post['id']]);
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);

    const preview = await t.api.get(path).expect(200);
    const direct = await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200);
    expect(preview.body).toEqual(direct.body);
    expect(preview.body.data.status).toBe('draft');
    expect(preview.headers['etag']).toBe(direct.headers['etag']);
    expect(preview.headers['x-robots-tag']).toBe('noindex');
    await t.api.get(path).set('If-None-Match', preview.headers['etag'] as string).expect(304);

    await t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send({ title: 'Renamed', status: 'archived' }).expect(200);
    expect((await t.api.get(path).expect(200)).body.data).toMatchObject({ title: 'Renamed', status: 'archived' });
  });

  it('works until it expires, then answers 404; takes 1 to 10080 minutes', async () => {
    const post = await f.post(a, {});
    const { res, path } = await link(post['id'], { expires_in_minutes: 1 });
    expect(res.body.data.expires_at).toBe(new Date(t.clock.now().getTime() + 60_000).toISOString());
    t.clock.advance(59_999);
    await t.api.get(path).expect(200);
    t.clock.advance(1);
    expect((await t.api.get(path).expect(404)).body.code).toBe('not_found');
    expect((await link(post['id'], { expires_in_minutes: 10_080 })).res.body.data.expires_at).toBe(new Date(t.clock.now().getTime() + 10_080 * 60_000).toISOString());
    for (const bad of [0, 10_081, 1.5, '60', null, -1]) {
      const refused = await t.api.post(`/api/v1/posts/${post['id']}/preview-link`).set(a.auth).send({ expires_in_minutes: bad }).expect(400);
      expect([...new Set(refused.body.errors.map((e: { field: string }) => e.field))]).toEqual(['expires_in_minutes']);
    }
    // Expired links of the post go when the next one is made.
    const stored = await t.query('SELECT 1 FROM post_preview_links WHERE post_id = $1 AND expires_at <= $2', [post['id'], t.clock.now()]);
    expect(stored).toEqual([]);
  });

  it('dies with its post', async () => {
    const post = await f.post(a, { status: 'published' });
    const { path } = await link(post['id']);
    await t.api.get(path).expect(200);
    await t.api.delete(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200);
    await t.api.get(path).expect(404);
    expect(await t.query('SELECT 1 FROM post_preview_links WHERE post_id = $1', [post['id']])).toEqual([]);
  });

  it('answers 404 for unknown or malformed tokens and for another organization’s post; 403 without posts:write', async () => {
    for (const token of ['A'.repeat(32), 'short', 'x'.repeat(33), '%20'.repeat(32)]) {
      await t.api.get(`/public/v1/previews/${token}`).expect(404);
    }
    const post = await f.post(a, {});
    await t.api.post(`/api/v1/posts/${post['id']}/preview-link`).set(other.auth).expect(404);
    await t.api.post(`/api/v1/posts/${MISSING}/preview-link`).set(a.auth).expect(404);
    const reader = await t.tenant({ scopes: ['posts:read'] });
    await t.api.post(`/api/v1/posts/${post['id']}/preview-link`).set(reader.auth).expect(403);
    expect(await t.query('SELECT 1 FROM post_preview_links WHERE post_id = $1', [post['id']])).toEqual([]);
  });
});
