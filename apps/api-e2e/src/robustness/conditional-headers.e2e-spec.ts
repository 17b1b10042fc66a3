import { createTestApp, Tenant, TestApp } from '../support/test-app';

/** Hostile validators and queries on the HTTP-semantics paths (ETag, If-Match, Link): never a 5xx, never a write. */
describe('robustness: conditional headers and Link with hostile input (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let path: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 0, webhookDispatcher: false } });
    a = await t.tenant();
    path = `/api/v1/schedules/${(await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room' }).expect(201)).body.data.id}`;
  });
  afterAll(() => t.close());

  const HOSTILE = [
    '',
    ' ',
    ',,,,',
    '"',
    '""',
    'W/',
    'W/"',
    '*, "a"',
    '"a", *',
    '"\u00e9\u00ff"',
    `"${'a'.repeat(7000)}"`,
    Array.from({ length: 2000 }, (_, i) => `"${i}"`).join(','),
    'W/'.repeat(3000),
    '"'.repeat(7000),
  ];

  it.each(HOSTILE.map((value, i) => [i, value]))('If-None-Match #%i never breaks a GET', async (_i, value) => {
    const res = await t.raw().get(path).set(a.auth).set('If-None-Match', value as string);
    expect([200, 304]).toContain(res.status);
  });

  it.each(HOSTILE.map((value, i) => [i, value]))('If-Match #%i on a PATCH is 200 only for *, else 412, and nothing else', async (_i, value) => {
    const before = (await t.api.get(path).set(a.auth).expect(200)).body.data;
    const res = await t.raw().patch(path).set(a.auth).set('If-Match', value as string).send({ name: 'Changed' });
    if (/^\s*\*\s*$/.test(value as string)) {
      expect(res.status).toBe(200);
      await t.api.patch(path).set(a.auth).send({ name: before.name }).expect(200);
    } else {
      expect(res.status).toBe(412);
      expect((await t.api.get(path).set(a.auth).expect(200)).body.data.name).toBe(before.name);
    }
  });

  it.each([
    '?limit=1&offset=0&' + Array.from({ length: 500 }, (_, i) => `x${i}=${i}`).join('&'),
    '?limit=1&offset=9007199254740991',
    '?limit=1&offset=1&%3E=%3C&q=%22%3E%3Cscript%3E',
    '?limit=1&offset=1&name=%F0%9F%98%80%E2%80%AE',
    '?limit=1&offset=1&a=%0D%0ALocation:%20x',
  ])('a page with a hostile query %#: 200 or 400, and a Link that is one well-formed header', async (query) => {
    const res = await t.raw().get(`/api/v1/bookings${query}`).set(a.auth);
    expect([200, 400]).toContain(res.status);
    const link = res.headers['link'] as string | undefined;
    if (res.status === 200) {
      expect(link).toBeDefined();
      for (const part of link!.split(/,\s*(?=<)/)) expect(part).toMatch(/^<\/api\/v1\/bookings\?[^<>"\s]*>; rel="(first|prev|next)"$/);
    }
    expect(res.headers['location']).toBeUndefined();
  });
});
