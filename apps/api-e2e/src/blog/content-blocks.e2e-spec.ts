import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures } from './blog-fixtures';

/** Content blocks over HTTP: stored as jsonb, returned as given; bad input gets a documented problem. */
describe('posts: content blocks and bad input (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    f = blogFixtures(t);
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns every kind of block exactly as it was sent', async () => {
    const content = [
      { type: 'heading', level: 1, text: 'Ünïcödé 日本語 🎉' },
      { type: 'paragraph', text: '<script>alert("x")</script> \' " \\ %_ $1 ; DROP TABLE posts; --' },
      { type: 'paragraph', text: '' },
      { type: 'image', url: 'https://cdn.example.com/a%20b.png?w=10&h=20#frag', alt: '' },
      { type: 'list', items: ['one', '', 'three \n with a newline'] },
      { type: 'quote', text: 'To be, or not to be', author: 'Shakespeare' },
      { type: 'quote', text: 'Anonymous wisdom' },
    ];
    const created = await f.post(a, { content });
    expect(created['content']).toEqual(content);
    const read = await t.api.get(`/api/v1/posts/${created['id']}`).set(a.auth).expect(200);
    expect(read.body.data.content).toEqual(content);
    const [row] = await t.query('SELECT content FROM posts WHERE id = $1', [created['id']]);
    expect(row!['content']).toEqual(content);
  });

  type BadCase = [string, Record<string, unknown>, number, string, string];
  const bad: BadCase[] = [
    ['a heading of level 7', { content: [{ type: 'heading', level: 7, text: 'Too deep' }] }, 400, 'validation_failed', 'content[0].level'],
    ['an image with a relative URL', { content: [{ type: 'paragraph', text: 'ok' }, { type: 'image', url: 'images/a.png', alt: 'A' }] }, 400, 'validation_failed', 'content[1].url'],
    ['a list with no items', { content: [{ type: 'list', items: [] }] }, 400, 'validation_failed', 'content[0].items'],
    ['an unknown block type', { content: [{ type: 'embed', html: '<iframe>' }] }, 400, 'validation_failed', 'content[0].type'],
    ['an extra block field', { content: [{ type: 'quote', text: 'q', author: 'a', cite: 'x' }] }, 400, 'validation_failed', 'content[0].cite'],
    ['a block that is not an object', { content: ['text'] }, 400, 'validation_failed', 'content[0]'],
    ['more than 500 blocks', { content: Array.from({ length: 501 }, () => ({ type: 'paragraph', text: 'p' })) }, 400, 'validation_failed', 'content'],
    ['a taken slug', { slug: 'taken' }, 409, 'slug_taken', 'slug'],
    ['an unknown category', { category_id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' }, 422, 'invalid_reference', 'category_id'],
    ['an unknown tag', { tag_ids: ['0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a'] }, 422, 'invalid_reference', 'tag_ids[0]'],
  ];

  it.each(bad)('answers %s with the documented problem, never 500', async (_name, body, status, code, field) => {
    await f.post(a, { slug: 'taken' }).catch(() => undefined);
    const before = await t.query('SELECT count(*)::int AS n FROM posts');
    const res = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Bad', slug: 'bad', ...body }).expect(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, type: `https://almanac.dev/problems/${code}`, request_id: expect.any(String) });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await t.query('SELECT count(*)::int AS n FROM posts')).toEqual(before);
  });

  it('refuses bad content on update and keeps the stored content', async () => {
    const content = [{ type: 'paragraph', text: 'Original' }];
    const post = await f.post(a, { content });
    const res = await t.api
      .patch(`/api/v1/posts/${post['id']}`)
      .set(a.auth)
      .send({ content: [{ type: 'heading', level: 7, text: 'x' }] })
      .expect(400);
    expect(res.body.errors).toEqual([{ field: 'content[0].level', message: 'must not be greater than 6' }]);
    expect((await t.query('SELECT content FROM posts WHERE id = $1', [post['id']]))[0]!['content']).toEqual(content);
  });

  it('stores a body near the 1 MiB limit full of distinct words without failing', async () => {
    // ~950 KB of distinct short words: the searchable text is capped so the tsvector stays in bounds.
    let n = 0;
    const word = (): string => (n++).toString(36);
    const content = Array.from({ length: 500 }, () => ({
      type: 'paragraph',
      text: Array.from({ length: 380 }, word).join(' '),
    }));
    const body = { title: 'Huge', slug: 'huge', content };
    expect(JSON.stringify(body).length).toBeGreaterThan(900_000);
    expect(JSON.stringify(body).length).toBeLessThan(1024 * 1024);
    const res = await t.api.post('/api/v1/posts').set(a.auth).send(body).expect(201);
    expect(res.body.data.content).toHaveLength(500);
    const found = await t.api.get(`/api/v1/posts?search=${(5).toString(36)}`).set(a.auth).expect(200);
    expect(found.body.data.map((item: { slug: string }) => item.slug)).toContain('huge');
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const content = Array.from({ length: 500 }, () => ({ type: 'paragraph', text: 'x'.repeat(2200) }));
    const res = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Too big', slug: 'too-big', content }).expect(413);
    expect(res.body.code).toBe('payload_too_large');
  });
});
