import { freePort } from '@almanac/shared';
import { readTestDatabaseEnv, testDatabaseUrl } from '@almanac/shared/testing';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { ensureBuilt, httpRequest, Running, runBuilt, runCli } from '../identity/support/built-app';

const MAIN = 'dist/apps/api/src/main.js';
const ORIGIN = 'http://localhost:3000';

async function eventually(probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in time');
}

/**
 * Many instances, one database: three real processes of the built app, started at the same moment on one fresh,
 * unmigrated database, behave as one. (Webhook delivery across processes: webhook-processes.e2e-spec.ts.)
 */
describe('three instances on one database (e2e)', () => {
  const name = `many_${randomBytes(5).toString('hex')}`;
  let adminUrl: string;
  let url: string;
  let db: Client;
  let feeds: Server;
  let releaseFeed: () => void = () => undefined;
  let feedArrived: () => void = () => undefined;
  const servers: Array<{ base: string; running: Running }> = [];
  let key: string;
  let orgId: string;

  beforeAll(async () => {
    await ensureBuilt();
    adminUrl = readTestDatabaseEnv().adminUrl;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    url = testDatabaseUrl(name);

    // A feed that answers only when the test lets it: it holds the first import under its lock.
    feeds = createServer((req, res) => {
      feedArrived();
      void new Promise<void>((resolve) => (releaseFeed = resolve)).then(() =>
        res
          .writeHead(200, { 'Content-Type': 'text/calendar' })
          .end('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n'),
      );
    });
    await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));

    const env = {
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      APP_URL: ORIGIN,
      CALENDAR_ALLOW_PRIVATE_HOSTS: 'true',
      WEBHOOK_DISPATCHER: 'false',
    };
    const ports = [await freePort(), await freePort(), await freePort()];
    const started = ports.map((port) => ({
      base: `http://127.0.0.1:${port}`,
      running: runBuilt(MAIN, [], { ...env, PORT: String(port) }),
    }));
    await Promise.all(started.map((s) => s.running.waitFor(/Almanac listening/, 120_000)));
    servers.push(...started);

    db = new Client({ connectionString: url });
    await db.connect();
    orgId = JSON.parse((await runCli(['org:create', '--name', 'Many'], { DATABASE_URL: url })).stdout).id;
    key = JSON.parse((await runCli(['api-key:create', '--org', orgId], { DATABASE_URL: url })).stdout).key;
    await runCli(
      [
        'user:create',
        '--org',
        orgId,
        '--email',
        'admin@many.example',
        '--name',
        'A',
        '--password',
        'correct horse battery',
      ],
      { DATABASE_URL: url },
    );
  }, 300_000);

  afterAll(async () => {
    releaseFeed();
    for (const s of servers) s.running.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.running.exited));
    await db?.end();
    feeds.closeAllConnections();
    await new Promise((r) => feeds.close(r));
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });
  const login = (i: number, password = 'correct horse battery', email = 'admin@many.example') =>
    httpRequest(`${servers[i]!.base}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: ORIGIN },
      body: { email, password },
    });

  it('applied every migration once, and every instance is ready', async () => {
    const { rows } = await db.query('SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    for (const s of servers) expect((await httpRequest(`${s.base}/health/ready`)).status).toBe(200);
    for (const s of servers) expect(s.running.stderr()).not.toMatch(/error/i);
  });

  it('replays an idempotent POST made on one instance when it is retried on another', async () => {
    const headers = { ...auth(), 'Idempotency-Key': 'many-1' };
    const first = await httpRequest(`${servers[0]!.base}/api/v1/schedules`, {
      method: 'POST',
      headers,
      body: { name: 'Once' },
    });
    const again = await httpRequest(`${servers[1]!.base}/api/v1/schedules`, {
      method: 'POST',
      headers,
      body: { name: 'Once' },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await db.query(`SELECT 1 FROM schedules WHERE name = 'Once'`)).rowCount).toBe(1);
  });

  it('keeps a session valid on every instance, and dead on all after logout on one', async () => {
    const signed = await login(0);
    expect(signed.status).toBe(200);
    const cookie = String((signed.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    for (const s of servers)
      expect((await httpRequest(`${s.base}/api/auth/session`, { headers: { Cookie: cookie } })).status).toBe(
        200,
      );
    const out = await httpRequest(`${servers[2]!.base}/api/auth/logout`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN },
    });
    expect(out.status).toBe(204);
    for (const s of servers)
      expect((await httpRequest(`${s.base}/api/auth/session`, { headers: { Cookie: cookie } })).status).toBe(
        401,
      );
  });

  it('counts failed logins across instances', async () => {
    for (let i = 0; i < 10; i++)
      expect((await login(i % 3, 'wrong password!', 'victim@many.example')).status).toBe(401);
    for (let i = 0; i < 3; i++)
      expect((await login(i, 'wrong password!', 'victim@many.example')).status).toBe(429);
  });

  it('runs one import per organization at a time across instances (the other gets 409)', async () => {
    const signed = await login(0);
    const cookie = String((signed.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    const schedule = await httpRequest(`${servers[0]!.base}/api/v1/schedules`, {
      method: 'POST',
      headers: auth(),
      body: { name: 'Imports' },
    });
    const feedUrl = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}/held.ics`;
    const put = await httpRequest(`${servers[0]!.base}/api/organizations/${orgId}/calendar-integration`, {
      method: 'PUT',
      headers: { Cookie: cookie, Origin: ORIGIN },
      body: { provider: 'ics', url: feedUrl, schedule_id: schedule.body.data.id },
    });
    expect(put.status).toBe(200);
    const body = {
      organizationId: orgId,
      startDate: '2027-01-01T00:00:00Z',
      endDate: '2027-02-01T00:00:00Z',
    };
    const arrived = new Promise<void>((resolve) => (feedArrived = resolve));
    const first = httpRequest(`${servers[0]!.base}/api/bookings/sync-external`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN },
      body,
    });
    await arrived; // the first import holds the organization's lock while it waits for the feed
    const second = await httpRequest(`${servers[1]!.base}/api/bookings/sync-external`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN },
      body,
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('sync_in_progress');
    releaseFeed();
    expect((await first).status).toBe(200);
  });

  it('publishes a post scheduled a few seconds ahead exactly once', async () => {
    const at = new Date(Date.now() + 3_000).toISOString();
    const created = await httpRequest(`${servers[0]!.base}/api/v1/posts`, {
      method: 'POST',
      headers: auth(),
      body: { title: 'Later', slug: 'later', status: 'scheduled', published_at: at },
    });
    expect(created.status).toBe(201);
    await eventually(
      async () =>
        (await db.query(`SELECT status FROM posts WHERE id = $1`, [created.body.data.id])).rows[0].status ===
        'published',
    );
    // Every instance's publisher has run at least once more since (they run every 5 s).
    const published = await db.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE type = 'post.published' AND data->>'id' = $1`,
      [created.body.data.id],
    );
    expect(published.rows[0].n).toBe(1);
  }, 60_000);
});
