import { freePort } from '@almanac/shared';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** The postmaster of the cluster in `dataDir` and every process under it (backends, checkpointer, …). */
function postgresProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": the command may hold spaces or parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = [postmaster];
  for (let i = 0; i < found.length; i++) for (const [pid, parent] of parents) if (parent === found[i]) found.push(pid);
  return found;
}

/**
 * PostgreSQL stops answering (SIGSTOP: its sockets stay open, nothing is refused or
 * closed). A write answers 503 `database_unavailable` within 5 s, readiness 503 within 2 s, never a
 * hung request (the client gives up at those bounds and the test fails); after SIGCONT everything
 * answers again without a restart, and the write's Idempotency-Key runs it once.
 */
describe('when the database stops answering, its connections open (e2e)', () => {
  let dataDir: string;
  let pg: PostgresProcess;
  let t: TestApp;
  let a: Tenant;
  let frozen: number[] = [];
  // A backend whose connection was closed while frozen is gone once resumed: nothing to signal.
  const signal = (name: NodeJS.Signals) =>
    frozen.forEach((pid) => {
      try {
        process.kill(pid, name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    });

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-frozen-'));
    pg = await startPostgresProcess(dataDir, await freePort());
    // The configured defaults: nothing here is tuned for the test.
    t = await createTestApp({ config: { databaseUrl: pg.url, apiKeyCacheSeconds: 60 } });
    a = await t.tenant();
  }, 300_000);

  afterAll(async () => {
    signal('SIGCONT');
    await t?.close().catch(() => undefined);
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 within the bounds while frozen, and recovers by itself when it resumes', async () => {
    await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Before' }).expect(201);
    await t.api.get('/health/ready').expect(200);
    frozen = postgresProcesses(dataDir);
    signal('SIGSTOP');
    try {
      const timed = async <T>(request: PromiseLike<T>) => {
        const started = Date.now();
        const answer = await request;
        return { answer, ms: Date.now() - started };
      };
      const write = await timed(t.api.post('/api/v1/schedules').set(a.auth).set('Idempotency-Key', 'frozen-write').send({ name: 'During' }).timeout(5_000));
      expect([write.answer.status, write.answer.body.code, write.answer.headers['retry-after']]).toEqual([503, 'database_unavailable', '5']);
      const ready = await timed(t.api.get('/health/ready').timeout(2_000));
      expect([ready.answer.status, ready.answer.body.code]).toEqual([503, 'database_unavailable']);
      const read = await timed(t.api.get('/api/v1/schedules').set(a.auth).timeout(5_000));
      expect(read.answer.status).toBe(503);
      // For the record (the bounds themselves are the requests' timeouts above).
      console.info(`frozen database: write 503 in ${write.ms} ms, ready 503 in ${ready.ms} ms, read 503 in ${read.ms} ms`);
      await t.api.get('/health/live').timeout(2_000).expect(200);
    } finally {
      signal('SIGCONT');
    }

    await eventually(async () => (await t.raw().get('/health/ready')).status === 200);
    await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'After' }).expect(201);
    // The write answered 503 never ran; its key, claimed while the database was away, is freed once it
    // is back, so the retry runs it: once.
    let retried = 0;
    await eventually(async () => {
      const retry = await t.api.post('/api/v1/schedules').set(a.auth).set('Idempotency-Key', 'frozen-write').send({ name: 'During' });
      expect([201, 409]).toContain(retry.status);
      retried = retry.status;
      return retry.status === 201;
    });
    expect(retried).toBe(201);
    const replay = await t.api.post('/api/v1/schedules').set(a.auth).set('Idempotency-Key', 'frozen-write').send({ name: 'During' }).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const names = await t.query<{ name: string }>(`SELECT name FROM schedules WHERE organization_id = $1 ORDER BY created_at`, [a.orgId]);
    expect(names.map((n) => n.name)).toEqual(['Before', 'After', 'During']);
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
