import { freePort } from '@almanac/shared';
import { createTestDatabase } from '@almanac/shared/testing';
import { createHash, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ensureBuilt, httpRequest, runBuilt, runCli } from './support/built-app';

const MAIN = 'dist/apps/api/src/main.js';

/** Resolves once nothing accepts TCP connections on the port any more (bounded). */
async function refusesConnections(port: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function newApiKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let body = '';
  for (let i = 0; i < 32; i++) body += alphabet[randomInt(62)];
  return `alm_${body}`;
}

/**
 * The real built server (`npm run build` output, started as `npm start` does) in a child process.
 */
describe('the built server process (e2e)', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it('on SIGTERM stops accepting, finishes the in-flight request, closes the pool and exits 0', async () => {
    const database = await createTestDatabase();
    const locker = new Client({ connectionString: database.url });
    await locker.connect();
    const port = await freePort();
    const server = runBuilt(MAIN, [], { DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: 'info' });
    try {
      const key = newApiKey();
      const [org] = (await locker.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Shutdown') RETURNING id`)).rows;
      await locker.query(
        `INSERT INTO api_keys (id, organization_id, name, prefix, key_hash, scopes) VALUES (gen_random_uuid(), $1, 'k', $2, $3, ARRAY['bookings:read'])`,
        [org.id, key.slice(0, 12), createHash('sha256').update(key).digest('hex')],
      );
      await server.waitFor(/Almanac listening/);
      // With DATABASE_URL nothing is seeded.
      expect(server.stdout()).not.toContain('demo organization');
      expect((await locker.query('SELECT count(*)::int AS n FROM organizations')).rows[0].n).toBe(1);

      // Logs are JSON lines carrying the request id.
      const traced = await httpRequest(`http://127.0.0.1:${port}/api/v1/api-keys/current`, { headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'trace-me-42' } });
      expect(traced.status).toBe(200);
      expect(traced.headers['x-request-id']).toBe('trace-me-42');
      const logLine = await server.waitFor(/^\{.*"trace-me-42".*\}$/m);
      const entry = JSON.parse(logLine[0]);
      expect(entry).toMatchObject({ req: { id: 'trace-me-42', method: 'GET', url: '/api/v1/api-keys/current' }, res: { statusCode: 200 } });
      expect(logLine[0]).not.toContain(key); // the Authorization header is redacted

      // A slow request: the test holds a lock the request's key lookup must wait for.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE');
      let finished = false;
      const inFlight = httpRequest(`http://127.0.0.1:${port}/api/v1/api-keys/current`, { headers: { Authorization: `Bearer ${key}` } }).finally(() => {
        finished = true;
      });
      for (let i = 0; i < 200; i++) {
        const waiting = await locker.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'almanac' AND wait_event_type = 'Lock'`,
          [database.name],
        );
        if (waiting.rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }

      server.child.kill('SIGTERM');
      await server.waitFor(/SIGTERM received/);
      expect(await refusesConnections(port)).toBe(true);
      expect(finished).toBe(false);

      await locker.query('COMMIT');
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(response.body.data.organization_id).toBe(org.id);

      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.stdout()).toContain('\nstopped\n');
      const left = await locker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'almanac'`, [database.name]);
      expect(left.rows[0].n).toBe(0);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await locker.end();
      await database.drop();
    }
  }, 120_000);

  it('gives in-flight requests at most 10 s after SIGTERM, then closes their connections and exits 0', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const server = runBuilt(MAIN, [], { DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: 'warn' });
    try {
      await server.waitFor(/Almanac listening/);
      // A request whose body never finishes arriving (a client trickling a large upload).
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let closedAt = 0;
      socket.on('close', () => (closedAt = Date.now()));
      socket.on('error', () => undefined);
      // `Expect: 100-continue`: Node answers "100 Continue" once it has parsed the headers and handed
      // the request on, so the test knows the request is in flight (not an idle connection) before
      // it signals. Then the body starts arriving and never finishes.
      const continued = new Promise<void>((resolve) => {
        let received = '';
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve();
        });
      });
      socket.write(
        'POST /api/v1/schedules HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n',
      );
      await continued;
      socket.write('{"name":"');

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      const exitedAt = Date.now();
      expect(closedAt).toBeGreaterThan(0);
      expect(closedAt - signalledAt).toBeGreaterThanOrEqual(9_500);
      expect(exitedAt - signalledAt).toBeLessThan(14_000);
      expect(server.stdout()).toContain('did not finish within 10 s');
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await database.drop();
    }
  }, 60_000);

  it('on the first start of an empty embedded database prints a demo key that works, once; SIGTERM stops PostgreSQL too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'almanac-demo-'));
    const port = await freePort();
    // At the default level: the credentials stay on the first screen, not under Nest's inventory
    // of modules and routes (a line each, over a hundred, at debug level only).
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
    const first = runBuilt(MAIN, [], env);
    try {
      const curl = await first.waitFor(/curl -H "Authorization: Bearer (alm_[0-9A-Za-z]{32})" (http:\/\/\S+)/);
      const login = await first.waitFor(/admin login +(\S+) \/ (\S+)/);
      await first.waitFor(/Almanac listening/);
      await first.waitFor(/"msg":"Nest application successfully started"/);
      expect(first.stdout()).not.toMatch(/"context":"(RoutesResolver|RouterExplorer|InstanceLoader)"/);
      expect(first.stdout().trimEnd().split('\n').length).toBeLessThanOrEqual(20);
      expect(curl[2]).toBe(`http://localhost:${port}/api/v1/api-keys/current`);
      const current = await httpRequest(curl[2]!, { headers: { Authorization: `Bearer ${curl[1]}` } });
      expect(current.status).toBe(200);
      expect(current.body.data).toMatchObject({ name: 'Demo key', scopes: expect.arrayContaining(['bookings:write', 'posts:read']) });
      const session = await httpRequest(`http://localhost:${port}/api/auth/login`, { method: 'POST', body: { email: login[1], password: login[2] } });
      expect(session.status).toBe(200);
      expect(session.body.data.user).toMatchObject({ email: login[1], role: 'admin', organization_id: current.body.data.organization_id });

      // The CLI refuses to open the embedded database while the server holds it.
      const cli = await runCli(['org:create', '--name', 'Second'], { DATA_DIR: dataDir });
      expect(cli.code).toBe(1);
      expect(JSON.parse(cli.stderr).error.code).toBe('database_in_use');
      expect(cli.stdout).toBe('');

      expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);
      first.child.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });
      expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // PostgreSQL stopped cleanly

      // A restart keeps the data and prints nothing new.
      const second = runBuilt(MAIN, [], env);
      try {
        await second.waitFor(/Almanac listening/);
        expect(second.stdout()).not.toContain('demo organization');
        const again = await httpRequest(curl[2]!, { headers: { Authorization: `Bearer ${curl[1]}` } });
        expect(again.status).toBe(200);
        second.child.kill('SIGTERM');
        expect(await second.exited).toEqual({ code: 0, signal: null });
      } finally {
        if (second.child.exitCode === null) second.child.kill('SIGKILL');
      }
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
