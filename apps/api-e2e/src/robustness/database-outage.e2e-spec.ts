import { freePort } from '@almanac/shared';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, httpRequest, runBuilt } from '../identity/support/built-app';
import { PostgresProcess, startPostgresProcess } from '../support/postgres-process';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

/** Polls `probe` until it returns true, at most `ms` (a condition, not a fixed pause). */
async function eventually(probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in time');
}

/**
 * While PostgreSQL is away every request that needs it answers 503
 * `database_unavailable` with Retry-After, readiness is 503 and liveness 200; when it comes back the
 * service answers again without a restart. A real PostgreSQL of its own is stopped and started.
 */
describe('when the database goes away and comes back (e2e)', () => {
  let dataDir: string;
  let port: number;
  let pg: PostgresProcess;
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-outage-'));
    port = await freePort();
    pg = await startPostgresProcess(dataDir, port);
    // The app migrates the empty database as it starts.
    t = await createTestApp({ config: { databaseUrl: pg.url, apiKeyCacheSeconds: 60 } });
    a = await t.tenant();
  }, 300_000);

  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 database_unavailable with Retry-After while it is down, and recovers by itself', async () => {
    const created = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Before' }).expect(201);
    await pg.stop();

    const write = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'During' });
    expect(write.status).toBe(503);
    expect(write.headers['retry-after']).toBe('5');
    expect(write.body).toMatchObject({ status: 503, code: 'database_unavailable' });
    const read = await t.api.get(`/api/v1/schedules/${created.body.data.id}`).set(a.auth);
    expect(read.status).toBe(503);
    const login = await t.api.post('/api/auth/login').send({ email: 'nobody@example.com', password: 'whatever-it-is' });
    expect(login.status).toBe(503);
    const ready = await t.api.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.code).toBe('database_unavailable');
    await t.api.get('/health/live').expect(200);

    pg = await startPostgresProcess(dataDir, port);
    await eventually(async () => (await t.raw().get('/health/ready')).status === 200);
    await t.api.get(`/api/v1/schedules/${created.body.data.id}`).set(a.auth).expect(200);
    await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'After' }).expect(201);
    const names = await t.query<{ name: string }>(`SELECT name FROM schedules WHERE organization_id = $1 ORDER BY created_at`, [a.orgId]);
    expect(names.map((n) => n.name)).toEqual(['Before', 'After']);
  }, 120_000);
});

describe('when the embedded PostgreSQL child dies (e2e)', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it('the server process exits non-zero instead of serving errors forever', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'almanac-child-'));
    const port = await freePort();
    const server = runBuilt('dist/apps/api/src/main.js', [], { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' });
    try {
      await server.waitFor(/Almanac listening/, 120_000);
      expect((await httpRequest(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
      const postmaster = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
      process.kill(postmaster, 'SIGKILL');
      const exit = await server.exited;
      expect(exit.code).toBe(70);
      expect(server.stderr()).toContain('embedded PostgreSQL exited unexpectedly');
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
