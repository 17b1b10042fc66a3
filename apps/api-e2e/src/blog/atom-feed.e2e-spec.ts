import { parseFeed } from '@rowanmanning/feed-parser';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures } from './blog-fixtures';
import { child, childrenNamed, parseXml } from './xml-tree';

const ATOM = 'http://www.w3.org/2005/Atom';
const SITE = 'https://www.acme.example/blog/';

/** Characters XML 1.0 forbids, which the feed must drop. */
const FORBIDDEN = '\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF';
const HOSTILE = `]]></content><script>alert("x")</script> & &amp; 'q' ${FORBIDDEN} 🎉 שלום مرحبا \u202Eevil\u202C`;
// eslint-disable-next-line no-control-regex -- the characters XML forbids, which the feed drops
const withoutForbidden = (text: string) => text.replace(/[\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF]/g, '');

describe('Atom feed (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  let key: string;
  let keyId: string;
  const start = new Date('2026-11-21T10:00:00.000Z');
  const feedPath = () => `/public/v1/posts.atom?key=${key}`;

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
    f = blogFixtures(t);
    t.clock.set(start);
    a = await t.tenant({ name: 'Acme & "Friends" <Blog>' });
    const created = await t.identity.createApiKey({ organizationId: a.orgId, kind: 'publishable', siteUrl: SITE, allowedOrigins: ['https://www.acme.example'] });
    key = created.key;
    keyId = created.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is RFC 4287 Atom of the 50 latest published posts, newest first, with every entry field', async () => {
    const author = await f.author(a, 'Ada Lovelace');
    const news = await f.tag(a, { name: 'News' });
    const launch = await f.tag(a, { name: 'Launch' });
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const month = i < 28 ? '09' : '10';
      ids.push((await f.post(a, { title: `Post ${i}`, slug: `post-number-${i}`, status: 'published', published_at: `2026-${month}-${day}T08:00:00Z` }))['id']);
    }
    await f.post(a, { title: 'Draft', status: 'draft', published_at: '2026-11-01T00:00:00Z' });
    await f.post(a, { title: 'Archived', status: 'archived', published_at: '2026-11-02T00:00:00Z' });
    await f.post(a, { title: 'Later', status: 'scheduled', published_at: '2026-12-01T00:00:00Z' });
    const newest = await f.post(a, {
      title: 'The launch',
      slug: 'the-launch',
      excerpt: 'We shipped.',
      status: 'published',
      published_at: '2026-11-20T09:00:00Z',
      author_id: author.id,
      tag_ids: [news.id, launch.id],
      content: [
        { type: 'heading', level: 2, text: 'Why' },
        { type: 'paragraph', text: 'Fast & small.' },
        { type: 'image', url: 'https://cdn.example.com/a.png?x=1&y=2', alt: 'A "chart"' },
        { type: 'list', items: ['one', 'two'] },
        { type: 'quote', text: 'Ship it.', author: 'Grace' },
        { type: 'quote', text: 'Anonymous.' },
      ],
    });

    const res = await t.raw().get(feedPath()).expect(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers['etag']).toMatch(/^"[^"]+"$/);
    const xml = res.text;

    // A strict XML parser: well-formed, in the Atom namespace, with the feed's required elements.
    const root = parseXml(xml);
    expect([root.name, root.uri]).toEqual(['feed', ATOM]);
    expect(child(root, 'id').text).toBe(`urn:uuid:${a.orgId}`);
    expect(child(root, 'title').text).toBe('Acme & "Friends" <Blog>');
    expect(child(root, 'updated').text).toBe(newest['updated_at']);
    const links = childrenNamed(root, 'link').map((l) => l.attributes);
    expect(links).toEqual([
      { rel: 'self', type: 'application/atom+xml', href: `http://localhost:3000/public/v1/posts.atom?key=${key}` },
      { rel: 'alternate', type: 'text/html', href: SITE },
    ]);
    const entries = childrenNamed(root, 'entry');
    expect(entries).toHaveLength(50);
    expect(entries.map((e) => child(e, 'id').text)).toEqual([newest['id'], ...ids.slice().reverse().slice(0, 49)].map((id) => `urn:uuid:${id}`));

    const first = entries[0]!;
    expect(child(first, 'title').text).toBe('The launch');
    expect(child(first, 'published').text).toBe('2026-11-20T09:00:00.000Z');
    expect(child(first, 'updated').text).toBe(newest['updated_at']);
    expect(child(child(first, 'author'), 'name').text).toBe('Ada Lovelace');
    expect(child(first, 'summary').text).toBe('We shipped.');
    expect(childrenNamed(first, 'category').map((c) => c.attributes['term'])).toEqual(['launch', 'news']);
    expect(child(first, 'link').attributes).toEqual({ rel: 'alternate', type: 'text/html', href: 'https://www.acme.example/blog/the-launch' });
    const content = child(first, 'content');
    expect(content.attributes['type']).toBe('html');
    expect(content.text).toBe(
      '<h2>Why</h2><p>Fast &amp; small.</p><img src="https://cdn.example.com/a.png?x=1&amp;y=2" alt="A &quot;chart&quot;">' +
        '<ul><li>one</li><li>two</li></ul><blockquote><p>Ship it.</p><footer>Grace</footer></blockquote><blockquote><p>Anonymous.</p></blockquote>',
    );
    // A post without author or excerpt: the organization signs it, no summary.
    expect(child(child(entries[1]!, 'author'), 'name').text).toBe('Acme & "Friends" <Blog>');
    expect(childrenNamed(entries[1]!, 'summary')).toEqual([]);

    // A real feed reader understands it the same way.
    const feed = parseFeed(xml);
    expect(feed.title).toBe('Acme & "Friends" <Blog>');
    expect(feed.items).toHaveLength(50);
    const item = feed.items[0]!;
    expect(item.id).toBe(`urn:uuid:${newest['id']}`);
    expect(item.title).toBe('The launch');
    expect(item.url).toBe('https://www.acme.example/blog/the-launch');
    expect(item.published?.toISOString()).toBe('2026-11-20T09:00:00.000Z');
    expect(item.description).toBe('We shipped.');
    expect(item.authors.map((x) => x.name)).toEqual(['Ada Lovelace']);
    expect(item.categories.map((c) => c.term)).toEqual(['launch', 'news']);
    expect(item.content).toContain('<blockquote><p>Ship it.</p><footer>Grace</footer></blockquote>');
  });

  it('stays valid XML whatever the content: markup, ]]>, control characters, emoji, right-to-left text, 500 blocks', async () => {
    const org = await t.tenant({ name: `Hostile ${HOSTILE}` });
    const hostileKey = (await t.identity.createApiKey({ organizationId: org.orgId, kind: 'publishable' })).key;
    const tag = (await t.api.post('/api/v1/posts/tags').set(org.auth).send({ name: HOSTILE, slug: 'hostile' }).expect(201)).body.data;
    const blocks = [
      { type: 'heading', level: 1, text: HOSTILE },
      { type: 'paragraph', text: HOSTILE },
      { type: 'image', url: 'https://cdn.example.com/x.png?a=1&c=%3Cd%3E', alt: HOSTILE },
      { type: 'list', items: [HOSTILE, ']]>', '<![CDATA[x]]>'] },
      { type: 'quote', text: HOSTILE, author: HOSTILE },
    ];
    const content = Array.from({ length: 500 }, (_, i) => blocks[i % blocks.length]);
    const post = (
      await t.api
        .post('/api/v1/posts')
        .set(org.auth)
        .send({ title: HOSTILE, slug: 'hostile', excerpt: HOSTILE, status: 'published', content, tag_ids: [tag.id] })
        .expect(201)
    ).body.data;
    expect(post.title).toBe(HOSTILE);

    const xml = (await t.raw().get(`/public/v1/posts.atom?key=${hostileKey}`).expect(200)).text;
    // eslint-disable-next-line no-control-regex -- no forbidden character may reach the document
    expect(xml).not.toMatch(/[\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF]/);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(']]>');
    const root = parseXml(xml);
    expect(child(root, 'title').text).toBe(withoutForbidden(`Hostile ${HOSTILE}`));
    const [entry] = childrenNamed(root, 'entry');
    expect(child(entry!, 'title').text).toBe(withoutForbidden(HOSTILE));
    expect(child(entry!, 'summary').text).toBe(withoutForbidden(HOSTILE));
    expect(child(entry!, 'category').attributes['label']).toBe(withoutForbidden(HOSTILE));
    const html = child(entry!, 'content').text;
    // The HTML holds the text as text: no element of the content's own.
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html.match(/<p>/g)).toHaveLength(200);
    expect(html.match(/<h1>/g)).toHaveLength(100);
    expect(html.match(/<img /g)).toHaveLength(100);
    expect(html).toContain('src="https://cdn.example.com/x.png?a=1&amp;c=%3Cd%3E"');

    const feed = parseFeed(xml);
    // The reader decodes HTML entities in titles once more (it reads `&amp;` in the text as `&`).
    expect(feed.items[0]!.title).toBe(withoutForbidden(HOSTILE).replace('&amp;', '&'));
    expect(feed.items[0]!.content).toContain('🎉 שלום مرحبا');
  });

  it('answers 304 to If-None-Match with the current ETag, and changes it with any change an entry shows', async () => {
    const org = await t.tenant({ name: 'Etags' });
    const etagKey = (await t.identity.createApiKey({ organizationId: org.orgId, kind: 'publishable' })).key;
    const tag = (await t.api.post('/api/v1/posts/tags').set(org.auth).send({ name: 'Old name' }).expect(201)).body.data;
    const post = (await t.api.post('/api/v1/posts').set(org.auth).send({ title: 'T', slug: 't', status: 'published', tag_ids: [tag.id] }).expect(201)).body.data;
    const path = `/public/v1/posts.atom?key=${etagKey}`;
    const first = await t.raw().get(path).expect(200);
    const etag = first.headers['etag'] as string;
    expect((await t.raw().get(path).expect(200)).headers['etag']).toBe(etag);
    const cached = await t.raw().get(path).set('If-None-Match', etag).expect(304);
    expect(cached.text).toBe('');
    expect(cached.headers['etag']).toBe(etag);

    const changes: Array<() => Promise<unknown>> = [
      // Content only, in the same millisecond as the write before: the row's version tells.
      () => t.api.patch(`/api/v1/posts/${post.id}`).set(org.auth).send({ content: [{ type: 'paragraph', text: 'new' }] }).expect(200),
      () => t.api.patch(`/api/v1/posts/tags/${tag.id}`).set(org.auth).send({ slug: 'renamed' }).expect(200),
      () => t.api.post('/api/v1/posts').set(org.auth).send({ title: 'Second', slug: 'second', status: 'published' }).expect(201),
      () => t.api.patch(`/api/v1/posts/${post.id}`).set(org.auth).send({ status: 'draft' }).expect(200),
    ];
    let previous = etag;
    for (const change of changes) {
      await change();
      const res = await t.raw().get(path).set('If-None-Match', previous).expect(200);
      expect(res.headers['etag']).not.toBe(previous);
      previous = res.headers['etag'] as string;
    }
    // A draft or a scheduled post that is not due changes nothing.
    await t.api.post('/api/v1/posts').set(org.auth).send({ title: 'Hidden', slug: 'hidden' }).expect(201);
    await t.raw().get(path).set('If-None-Match', previous).expect(304);
  });

  it('shows every post as it is now after each write, rendering kept for the posts that did not change, alike for parallel readers', async () => {
    const org = await t.tenant({ name: 'Versions' });
    const versionsKey = (await t.identity.createApiKey({ organizationId: org.orgId, kind: 'publishable' })).key;
    const path = `/public/v1/posts.atom?key=${versionsKey}`;
    const paragraph = (text: string) => [{ type: 'paragraph', text }];
    const kept = (await t.api.post('/api/v1/posts').set(org.auth).send({ title: 'Kept', slug: 'kept', status: 'published', content: paragraph('kept & sound') }).expect(201)).body.data;
    const edited = (await t.api.post('/api/v1/posts').set(org.auth).send({ title: 'Edited', slug: 'edited', status: 'published', content: paragraph('first') }).expect(201)).body.data;
    const contentOf = (xml: string, postId: string): string => {
      const entry = childrenNamed(parseXml(xml), 'entry').find((e) => child(e, 'id').text === `urn:uuid:${postId}`);
      return child(entry!, 'content').text;
    };
    const first = (await t.raw().get(path).expect(200)).text;
    expect(contentOf(first, edited.id)).toBe('<p>first</p>');
    for (const text of ['second', 'third <b>', 'fourth']) {
      await t.api.patch(`/api/v1/posts/${edited.id}`).set(org.auth).send({ content: paragraph(text) }).expect(200);
      const answers = await Promise.all(Array.from({ length: 12 }, () => t.raw().get(path).expect(200)));
      expect(new Set(answers.map((res) => res.headers['etag'])).size).toBe(1);
      expect(new Set(answers.map((res) => res.text)).size).toBe(1);
      expect(contentOf(answers[0]!.text, edited.id)).toBe(`<p>${text.replace('<', '&lt;').replace('>', '&gt;')}</p>`);
      expect(contentOf(answers[0]!.text, kept.id)).toBe('<p>kept &amp; sound</p>');
      expect(parseFeed(answers[0]!.text).items.map((item) => item.title)).toEqual(['Edited', 'Kept']);
    }
    // A write in the same millisecond that changes the content alone: the row's version tells.
    await t.api.patch(`/api/v1/posts/${kept.id}`).set(org.auth).send({ content: paragraph('changed') }).expect(200);
    expect(contentOf((await t.raw().get(path).expect(200)).text, kept.id)).toBe('<p>changed</p>');
  });

  it('answers 404 for an unknown, revoked or secret key, or none; any page may read it, whatever the key’s origins', async () => {
    for (const bad of ['', 'key=', `key=alm_pub_${'x'.repeat(32)}`, `key=${a.key}`, 'key=a&key=b']) {
      const res = await t.raw().get(`/public/v1/posts.atom?${bad}`).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('not_found');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    // The feed is public (the key in its address opens it for anyone): every origin gets `*`, the
    // key's own origins as any other, and the answer does not vary by Origin.
    for (const origin of ['https://www.acme.example', 'https://evil.example']) {
      const res = await t.raw().get(feedPath()).set('Origin', origin).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['vary'] ?? '').not.toMatch(/origin/i);
    }
    await t.identity.revokeApiKey(keyId);
    await t.raw().get(feedPath()).expect(404);
  });
});
