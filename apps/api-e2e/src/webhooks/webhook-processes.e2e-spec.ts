import { freePort } from '@almanac/shared';
import { createTestDatabase } from '@almanac/shared/testing';
import { Client } from 'pg';
import { ensureBuilt, httpRequest, Running, runBuilt, runCli } from '../identity/support/built-app';
import { Receiver } from './receiver';

const MAIN = 'dist/apps/api/src/main.js';

async function eventually(probe: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in time');
}

/** Webhook delivery across real server processes on one database: each event once per endpoint. */
describe('webhook delivery by real server processes (e2e)', () => {
  const receiver = new Receiver();
  let url: string;
  let drop: () => Promise<void>;
  let key: string;
  let db: Client;
  const running: Running[] = [];

  async function start(env: Record<string, string> = {}): Promise<{ base: string; server: Running }> {
    const port = await freePort();
    const server = runBuilt(MAIN, [], { DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true', WEBHOOK_POLL_MS: '50', ...env });
    running.push(server);
    await server.waitFor(/Almanac listening/);
    return { base: `http://127.0.0.1:${port}`, server };
  }

  beforeAll(async () => {
    await ensureBuilt();
    await receiver.start();
    const database = await createTestDatabase();
    url = database.url;
    drop = database.drop;
    const orgId = JSON.parse((await runCli(['org:create', '--name', 'Hooks'], { DATABASE_URL: url })).stdout).id;
    key = JSON.parse((await runCli(['api-key:create', '--org', orgId], { DATABASE_URL: url })).stdout).key;
    db = new Client({ connectionString: url });
    await db.connect();
  }, 300_000);

  afterAll(async () => {
    for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await Promise.all(running.map((s) => s.exited));
    await db.end();
    await receiver.stop();
    await drop();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });

  it('delivers an event committed just before the process was killed (-9), once another process runs', async () => {
    const first = await start({ WEBHOOK_DISPATCHER: 'false' });
    const hook = await httpRequest(`${first.base}/api/v1/webhooks`, { method: 'POST', headers: auth(), body: { url: `${receiver.base}/killed`, events: ['post.created'] } });
    expect(hook.status).toBe(201);
    const created = await httpRequest(`${first.base}/api/v1/posts`, { method: 'POST', headers: auth(), body: { title: 'Survivor', slug: 'survivor' } });
    expect(created.status).toBe(201);
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    expect(receiver.on('/killed')).toHaveLength(0);

    await start();
    await receiver.waitFor(1);
    expect(JSON.parse(receiver.on('/killed')[0]!.body)).toMatchObject({ type: 'post.created', data: { id: created.body.data.id } });
    await db.query(`UPDATE webhook_endpoints SET enabled = false WHERE id = $1`, [hook.body.data.id]);
  }, 120_000);

  it('three processes deliver each event once per endpoint', async () => {
    const servers = [await start(), await start(), await start()];
    const before = receiver.received.length;
    const hooks: string[] = [];
    for (const path of ['/three-a', '/three-b']) {
      const hook = await httpRequest(`${servers[0]!.base}/api/v1/webhooks`, { method: 'POST', headers: auth(), body: { url: receiver.base + path, events: ['*'] } });
      hooks.push(hook.body.data.id);
    }
    const posts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        httpRequest(`${servers[i % 3]!.base}/api/v1/posts`, { method: 'POST', headers: auth(), body: { title: `p${i}`, slug: `three-${i}` } }),
      ),
    );
    expect(posts.every((p) => p.status === 201)).toBe(true);
    await receiver.waitFor(before + 60);
    await eventually(async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1) AND status = 'succeeded'`, [hooks]);
      return rows[0].n === 60;
    });
    for (const path of ['/three-a', '/three-b']) {
      const ids = receiver.on(path).map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
    }
    const { rows } = await db.query(`SELECT max(attempts)::int AS most FROM webhook_deliveries WHERE endpoint_id = ANY($1)`, [hooks]);
    expect(rows[0].most).toBe(1);
  }, 120_000);
});
