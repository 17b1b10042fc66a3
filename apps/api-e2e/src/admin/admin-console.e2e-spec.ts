import chromium from '@sparticuz/chromium';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import puppeteer, { Browser, Page } from 'puppeteer-core';
import { AUDIT_ACTIONS } from '@almanac/shared';
import { eventTypes } from '@almanac/identity';
import { WebhookDispatcher } from '@almanac/webhooks';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { startFeedServer } from './admin-fixtures';

const PASSWORD = 'correct horse battery';
const EMAIL = 'console@example.com';
/** Screenshots land here (git-ignored: tmp/). */
const SHOTS = join(__dirname, '../../../../tmp/admin-screenshots');

jest.setTimeout(180_000);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('admin console in a real browser (e2e)', () => {
  let t: TestApp;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;
  let browser: Browser;
  let page: Page;
  let base: string;
  let tenant: Tenant;
  let scheduleId: string;
  const pageErrors: string[] = [];
  const missing: string[] = [];
  const receiver = new Receiver();

  beforeAll(async () => {
    feeds = await startFeedServer();
    await receiver.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // APP_URL is the origin the browser uses, so the session's CSRF check sees its own origin.
    // The webhook dispatcher is driven by the test (runOnce), so the page is awaited, not raced.
    t = await createTestApp({
      config: { calendarAllowPrivateHosts: true, webhookAllowPrivateHosts: true, webhookDispatcher: false, appUrl: base },
    });
    await new Promise<void>((resolve) => t.server.listen(port, '127.0.0.1', resolve));
    tenant = await t.tenant({ name: 'Console Org' });
    await t.identity.createUser({ organizationId: tenant.orgId, email: EMAIL, name: 'Console Admin', password: PASSWORD, role: 'admin' });
    scheduleId = (await t.api.post('/api/v1/schedules').set(tenant.auth).send({ name: 'Imported', timezone: 'UTC' }).expect(201)).body.data.id;

    browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of (401|404|422|502)/.test(message.text())) pageErrors.push(message.text());
    });
    page.on('dialog', (dialog) => void dialog.accept());
    // Anything the page itself loads (documents, scripts, styles, icons) must exist.
    page.on('response', (response) => {
      if (response.status() === 404 && !new URL(response.url()).pathname.startsWith('/api/')) missing.push(response.url());
    });
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await feeds?.stop();
    await receiver.stop();
  });

  const text = (selector: string) => page.$eval(selector, (element) => element.textContent ?? '');
  const bearer = (key: string, path = '/api/v1/schedules') => fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });

  it('serves /admin with a strict Content-Security-Policy: same origin only, no inline script', async () => {
    const res = await fetch(`${base}/admin`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/https?:|\*/);
    const html = await res.text();
    // Every script is a same-origin file; no inline handler or script body.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/admin/main.js">']);
    expect(html).not.toMatch(/\son[a-z]+=/i);

    const js = await fetch(`${base}/admin/main.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-security-policy')).toBe(csp);
    expect((await fetch(`${base}/admin/admin.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    // Its own icon, from this origin (no 404 for /favicon.ico in every tab).
    expect(html).toContain('<link rel="icon" href="/admin/favicon.svg" type="image/svg+xml">');
    const icon = await fetch(`${base}/admin/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('content-security-policy')).toBe(csp);
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // The origin sessions are accepted from, for the page to compare with its own.
    expect(html).toContain(`<meta name="app-origin" content="${base}">`);
    expect((await fetch(`${base}/admin/nothing.js`)).status).toBe(404);
    expect((await fetch(`${base}/admin/..%2Fpackage.json`)).status).toBe(404);
  });

  it('opened at another name than APP_URL, says where to go instead of offering a sign-in that cannot work', async () => {
    const elsewhere = await browser.newPage();
    try {
      // The same server, reached as localhost while APP_URL says 127.0.0.1.
      await elsewhere.goto(base.replace('127.0.0.1', 'localhost') + '/admin', { waitUntil: 'load' });
      await elsewhere.waitForSelector('#wrong-origin');
      expect(await elsewhere.$('#login-form')).toBeNull();
      expect(await elsewhere.$eval('#app-origin-link', (a) => a.getAttribute('href'))).toBe(`${base}/admin`);
      expect(await elsewhere.$eval('#wrong-origin', (e) => e.textContent)).toContain(`accepts sign-ins only from ${base}`);
      // Following the link lands on the console's own address, with the sign-in form.
      await Promise.all([elsewhere.waitForNavigation({ waitUntil: 'load' }), elsewhere.click('#app-origin-link')]);
      expect(elsewhere.url()).toBe(`${base}/admin`);
      await elsewhere.waitForSelector('#login-form');
    } finally {
      await elsewhere.close();
    }
  });

  it('signs in, manages a key, sets the integration, imports, revokes and signs out', async () => {
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${base}/admin`, { waitUntil: 'load' });
    await page.waitForSelector('#login-form');
    // Signed out, the tabs and "Sign out" are neither shown nor reachable with the keyboard.
    const shown = (selector: string) => page.evaluate(`getComputedStyle(document.querySelector('${selector}')).display !== 'none'`);
    expect(await shown('#tabs')).toBe(false);
    expect(await shown('#who')).toBe(false);
    const reached: string[] = [];
    for (const key of [...Array<string>(8).fill('Shift+Tab'), ...Array<string>(8).fill('Tab')]) {
      if (key === 'Shift+Tab') {
        await page.keyboard.down('Shift');
        await page.keyboard.press('Tab');
        await page.keyboard.up('Shift');
      } else {
        await page.keyboard.press('Tab');
      }
      reached.push(String(await page.evaluate(`document.activeElement?.closest('#tabs, #who') ? document.activeElement.textContent : ''`)));
    }
    expect(reached.filter(Boolean)).toEqual([]);
    await page.focus('input[name=email]');

    // Keyboard only: the e-mail field has the focus, Tab to the password, Enter submits.
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong password');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#login-feedback .error');
    expect(await text('#login-feedback .error')).toBe('Wrong e-mail or password.');
    expect(await page.$('#tabs:not([hidden])')).toBeNull();

    await page.type('input[name=password]', PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#create-key-form');
    expect(await text('#who-email')).toContain(EMAIL);

    // Create a key: shown once, with a copy button, and it works on /api/v1.
    await page.type('#create-key-form input[name=name]', 'Robot');
    await page.click('#create-key-form input[value="bookings:read"]');
    await page.click('#create-key-form button[type=submit]');
    await page.waitForSelector('#new-key');
    const key = await text('#new-key');
    expect(key).toMatch(/^alm_[0-9A-Za-z]{32}$/);
    await browser.defaultBrowserContext().overridePermissions(base, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.click('#copy-key');
    await page.waitForFunction(`document.querySelector('#new-key-area [role=status] span')?.textContent === 'Copied.'`);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await page.waitForFunction(`document.querySelector('#keys-list')?.textContent.includes('Robot')`);
    expect(await text('#keys-list')).not.toContain(key);
    expect((await bearer(key)).status).toBe(200);
    expect((await bearer(key, '/api/v1/events')).status).toBe(403);
    // The tenant's own key and Robot.
    expect(await text('#keys-list p.muted')).toBe('2 keys');

    // A key revoked while its one-time box is still open: the box goes (its secret no longer works).
    await page.type('#create-key-form input[name=name]', 'Temp');
    await page.click('#create-key-form button[type=submit]');
    await page.waitForFunction(`document.querySelector('#new-key-area strong')?.textContent.includes('"Temp"')`);
    await page.waitForFunction(`document.querySelector('#keys-list p.muted')?.textContent === '3 keys'`);
    const [{ id: tempId }] = await t.query<{ id: string }>('SELECT id FROM api_keys WHERE organization_id = $1 AND name = $2', [tenant.orgId, 'Temp']);
    await page.click(`button[data-revoke="${tempId}"]`);
    await page.waitForSelector(`[data-revoked="${tempId}"]`);
    expect(await page.$('#new-key')).toBeNull();

    // A publishable key: the kind, its origins and site; the list says which keys are which.
    await page.click('#kind-publishable');
    expect(await page.$eval('#secret-scopes', (el) => el.hasAttribute('hidden'))).toBe(true);
    await page.type('#create-key-form input[name=name]', 'Website');
    await page.type('#key-origins', 'https://www.example.com http://localhost:8080');
    await page.type('#key-site-url', 'https://www.example.com/blog');
    await page.click('#create-key-form button[type=submit]');
    await page.waitForFunction(`document.querySelector('#new-key')?.textContent.startsWith('alm_pub_')`);
    const publishableKey = await text('#new-key');
    expect(publishableKey).toMatch(/^alm_pub_[0-9A-Za-z]{32}$/);
    await page.waitForSelector('#keys-list [data-kind="publishable"]');
    expect(await text('#keys-list [data-kind="publishable"]')).toBe('publishable · https://www.example.com, http://localhost:8080 · https://www.example.com/blog');
    expect(await page.$$eval('#keys-list [data-kind="secret"]', (list) => list.length)).toBeGreaterThan(0);
    expect((await bearer(publishableKey, '/api/v1/events')).status).toBe(200);
    expect((await bearer(publishableKey, '/api/v1/bookings')).status).toBe(403);

    // Calendar integration: set it to the loopback feed, see it masked.
    await page.click('button[data-view="calendar"]');
    await page.waitForSelector('#integration-form');
    await page.waitForSelector('#integration-none');
    await page.type('#integration-form input[name=url]', `${feeds.base}/feed.ics`);
    // The schedule is chosen by name from the organization's schedules (keyboard: focus the select, pick).
    const options = await page.$$eval('#integration-form select[name=schedule_id] option', (list) => list.map((o) => o.textContent));
    expect(options).toEqual(['Choose a schedule…', 'Imported (UTC)']);
    await page.select('#integration-form select[name=schedule_id]', scheduleId);
    await page.type('#integration-form input[name=name]', 'Clinic');
    await page.click('#integration-form button[type=submit]');
    await page.waitForSelector('#integration-url');
    const masked = await text('#integration-url');
    expect(masked.startsWith(feeds.base)).toBe(true);
    expect(masked).not.toContain('feed.ics');

    // The import: a range, run it, read its counts and reasons, see it in the history.
    await page.click('button[data-view="import"]');
    await page.waitForSelector('#import-form');
    await page.$eval('#import-form input[name=start]', (input) => input.setAttribute('value', '2027-03-01'));
    await page.$eval('#import-form input[name=end]', (input) => input.setAttribute('value', '2027-04-01'));
    await page.click('#import-form button[type=submit]');
    await page.waitForSelector('#import-counts');
    const counts = await page.$$eval('#import-counts [data-count]', (items) =>
      Object.fromEntries(items.map((item) => [item.getAttribute('data-count'), Number(item.textContent)])),
    );
    expect(counts).toEqual({ synced: 2, skipped: 2, updated: 0, cancelled: 0 });
    const reasons = await page.$$eval('#import-counts [data-reason]', (items) => items.map((item) => item.getAttribute('data-reason')).sort());
    expect(reasons).toEqual(['all_day', 'cancelled']);
    await page.waitForFunction(`document.querySelector('#import-history')?.textContent.includes('succeeded')`);
    expect(await text('#import-history')).toContain('2 synced, 2 skipped, 0 updated, 0 cancelled');
    expect(await t.query('SELECT 1 FROM bookings WHERE organization_id = $1', [tenant.orgId])).toHaveLength(2);

    await page.screenshot({ path: join(SHOTS, 'import-1280.png'), fullPage: true });
    await page.setViewport({ width: 375, height: 800 });
    await page.waitForFunction('window.innerWidth === 375');
    // Readable at 375 px: nothing wider than the screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'import-375.png'), fullPage: true });

    // Webhooks: subscribe (secret shown once), ping, read the log, redeliver, disable. The import's
    // events are fanned out first (to no endpoint), so the new endpoint receives only the ping.
    await t.app.get(WebhookDispatcher).runOnce();
    await page.setViewport({ width: 1280, height: 900 });
    await page.click('button[data-view="webhooks"]');
    await page.waitForSelector('#create-webhook-form');
    // One box per event type the server knows (read from its OpenAPI document), "all" ticked.
    const eventBoxes = () =>
      page.$$eval('#webhook-events input', (inputs) => inputs.map((input) => [input.getAttribute('value'), (input as unknown as { checked: boolean }).checked]));
    expect(await eventBoxes()).toEqual([['*', true], ...eventTypes().map((type) => [type, false])]);
    await page.type('#create-webhook-form input[name=url]', `${receiver.base}/hook`);
    await page.type('#create-webhook-form input[name=description]', 'CRM');
    await page.click('#create-webhook-form button[type=submit]');
    await page.waitForSelector('#new-webhook-secret');
    expect(await text('#new-webhook-secret')).toMatch(/^whsec_/);
    await page.waitForSelector('[data-ping]');
    await page.click('[data-ping]');
    await page.waitForSelector('#deliveries [data-status="pending"]');
    await t.app.get(WebhookDispatcher).runOnce();
    expect(receiver.on('/hook')).toHaveLength(1);
    await page.click('[data-log]');
    await page.waitForSelector('#deliveries [data-status="succeeded"]');
    await page.click('#deliveries [data-redeliver]');
    await page.waitForSelector('#deliveries [data-status="pending"]');
    // Queued again: the first attempt's 200 is not this delivery's outcome yet.
    const answer = await text('#deliveries [data-answer]');
    expect(answer).toMatch(/^queued/);
    expect(answer).toContain('(previous attempt: 200)');
    await t.app.get(WebhookDispatcher).runOnce();
    expect(receiver.on('/hook')).toHaveLength(2);
    await page.click('[data-log]');
    await page.waitForSelector('#deliveries [data-status="succeeded"]');
    await page.click('[data-toggle]');
    await page.waitForSelector('[data-enabled].error');
    expect(await t.query('SELECT 1 FROM webhook_endpoints WHERE organization_id = $1 AND enabled = false', [tenant.orgId])).toHaveLength(1);
    // A second endpoint for two events: ticking one clears "all"; with nothing ticked the form says so.
    expect(await eventBoxes()).toEqual([['*', true], ...eventTypes().map((type) => [type, false])]);
    await page.type('#create-webhook-form input[name=url]', `${receiver.base}/bookings-only`);
    await page.click('#webhook-events input[value="*"]');
    await page.click('#create-webhook-form button[type=submit]');
    await page.waitForFunction(`document.querySelector('#webhooks-feedback')?.textContent.includes('Tick at least one event.')`);
    await page.click('#webhook-events input[value="booking.created"]');
    await page.click('#webhook-events input[value="booking.cancelled"]');
    await page.click('#create-webhook-form button[type=submit]');
    await page.waitForFunction(`document.querySelector('#webhooks-list')?.textContent.includes('booking.created, booking.cancelled')`);
    const subscribed = await t.query<{ url: string; events: string[] }>('SELECT url, events FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at', [tenant.orgId]);
    expect(subscribed).toEqual([
      { url: `${receiver.base}/hook`, events: ['*'] },
      { url: `${receiver.base}/bookings-only`, events: ['booking.created', 'booking.cancelled'] },
    ]);
    await page.screenshot({ path: join(SHOTS, 'webhooks-1280.png'), fullPage: true });
    await page.setViewport({ width: 375, height: 800 });
    await page.waitForFunction('window.innerWidth === 375');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'webhooks-375.png'), fullPage: true });

    // Revoke the key from the list (narrow layout): it stays listed, revoked, and stops working.
    await page.click('button[data-view="keys"]');
    await page.waitForSelector('#keys-list table');
    const [{ id }] = await t.query<{ id: string }>('SELECT id FROM api_keys WHERE organization_id = $1 AND name = $2', [tenant.orgId, 'Robot']);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'keys-375.png'), fullPage: true });
    await page.click(`button[data-revoke="${id}"]`);
    await page.waitForSelector(`[data-revoked="${id}"]`);
    expect((await bearer(key)).status).toBe(401);
    await page.setViewport({ width: 1280, height: 900 });
    await page.screenshot({ path: join(SHOTS, 'keys-1280.png'), fullPage: true });

    // Remove the calendar integration (imported bookings stay).
    await page.click('button[data-view="calendar"]');
    await page.waitForSelector('#remove-integration');
    await page.click('#remove-integration');
    await page.waitForSelector('#integration-none');
    expect(await t.query('SELECT 1 FROM calendar_integrations WHERE organization_id = $1', [tenant.orgId])).toHaveLength(0);
    expect(await t.query('SELECT 1 FROM bookings WHERE organization_id = $1', [tenant.orgId])).toHaveLength(2);

    // Without an integration the import fails: the page says why and the history keeps the failed run.
    await page.click('button[data-view="import"]');
    await page.waitForSelector('#import-form');
    await page.click('#import-form button[type=submit]');
    await page.waitForSelector('#import-result .error');
    expect(await text('#import-result .error')).toMatch(/integration/i);
    await page.waitForFunction(`document.querySelector('#import-history')?.textContent.includes('integration_not_configured')`);
    expect(await text('#import-history')).toContain('2 runs, newest first');

    // The audit log: everything done above, newest first, with who did it; filtered by action.
    await page.click('button[data-view="audit"]');
    await page.waitForSelector('#audit-list table');
    const actionOptions = await page.$$eval('#audit-action option', (list) => list.map((o) => o.getAttribute('value')));
    expect(actionOptions).toEqual(['', ...AUDIT_ACTIONS]);
    const listed = await page.$$eval('#audit-list [data-action]', (items) => items.map((item) => item.getAttribute('data-action')));
    // Newest first: every entry of the organization, the import that failed last, the tenant's own key first.
    const stored = await t.query<{ action: string }>('SELECT action FROM audit_log WHERE organization_id = $1 ORDER BY at DESC, id DESC', [tenant.orgId]);
    expect(listed).toEqual(stored.map((row) => row.action));
    expect(listed[0]).toBe('calendar.import_ran');
    expect(listed[listed.length - 1]).toBe('api_key.created');
    expect([...new Set(listed)].sort()).toEqual(
      ['api_key.created', 'api_key.revoked', 'auth.sign_in_failed', 'auth.signed_in', 'calendar.import_ran', 'calendar_integration.removed', 'calendar_integration.set', 'webhook.created', 'webhook.updated'].sort(),
    );
    expect(await text('#audit-list')).toContain('Console Admin');
    expect(await text('#audit-list')).not.toContain(key);
    expect(await text('#audit-list')).not.toContain(publishableKey);
    await page.select('#audit-action', 'api_key.revoked');
    const revocations = stored.filter((row) => row.action === 'api_key.revoked').length;
    await page.waitForFunction(`document.querySelectorAll('#audit-list [data-action]').length === ${revocations}`);
    expect(await page.$$eval('#audit-list [data-action]', (items) => [...new Set(items.map((item) => item.textContent))])).toEqual(['api_key.revoked']);
    await page.screenshot({ path: join(SHOTS, 'audit-1280.png'), fullPage: true });
    await page.setViewport({ width: 375, height: 800 });
    await page.waitForFunction('window.innerWidth === 375');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'audit-375.png'), fullPage: true });
    await page.setViewport({ width: 1280, height: 900 });

    // Sign out: the session row is gone and the form is back.
    await page.click('#sign-out');
    await page.waitForSelector('#login-form');
    expect(await t.query('SELECT 1 FROM admin_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1', [EMAIL])).toHaveLength(0);
    expect(pageErrors).toEqual([]);
    expect(missing).toEqual([]);
  });
});
