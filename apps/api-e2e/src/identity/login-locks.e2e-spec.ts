import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestApp, TestApp } from '../support/test-app';

const PASSWORD = 'a-long-and-correct-password';
/** The first key of the login throttle's advisory locks: every instance takes the same ones. */
const LOGIN_LOCK_CLASS = 7_245_319;

/** Polls a condition (no fixed sleeps): resolves as soon as it holds, fails after 10 s. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The login throttle counts failures under a transaction-scoped advisory lock per client and one per
 * e-mail, so that another instance (here: a plain connection holding the same lock) is waited for,
 * and what it recorded before releasing the lock is counted. The attempt waits inside its one
 * statement (`login_attempt_admit`), so no lock is held across a round trip to the application.
 */
describe('login throttle locks in PostgreSQL (e2e)', () => {
  let t: TestApp;
  let orgId: string;
  let blocker: Client;
  let observer: Client;
  let counter = 0;

  async function newAdmin(): Promise<string> {
    counter += 1;
    const email = `locked${counter}@example.com`;
    await t.identity.createUser({ organizationId: orgId, email, name: `Locked ${counter}`, password: PASSWORD, role: 'admin' });
    return email;
  }

  async function loginsWaitingForTheLock(): Promise<number> {
    const { rows } = await observer.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'
          AND query LIKE '%login_attempt_admit%' AND pid <> $1`,
      [blockerPid],
    );
    return rows[0]!.waiting;
  }

  /**
   * Holds the lock of `key` in an open transaction of its own, as another instance would. The
   * blocker's server process is read inside that transaction: behind a pooler in transaction mode
   * each transaction may run on another one.
   */
  async function holdLock(key: string): Promise<void> {
    await blocker.query('BEGIN');
    blockerPid = (await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await blocker.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOGIN_LOCK_CLASS, key]);
  }

  async function recordFailures(n: number, emailKey: (i: number) => string, clientKey: string): Promise<void> {
    for (let i = 0; i < n; i += 1) {
      await blocker.query('INSERT INTO login_failures (id, email_key, client_key, attempted_at) VALUES ($1, $2, $3, $4)', [
        randomUUID(),
        emailKey(i),
        clientKey,
        t.clock.now(),
      ]);
    }
  }

  let blockerPid = 0;

  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await t.identity.createOrganization('Lock Org')).id;
    blocker = new Client({ connectionString: t.config.databaseUrl });
    // Outside any transaction, so that each look at pg_stat_activity is a fresh snapshot.
    observer = new Client({ connectionString: t.config.databaseUrl });
    await Promise.all([blocker.connect(), observer.connect()]);
  });
  afterAll(async () => {
    await Promise.all([blocker.end(), observer.end()]);
    await t.close();
  });

  it("waits for the e-mail's lock, then counts the failures recorded under it: a correct password gets 429", async () => {
    const email = await newAdmin();
    await holdLock(email);
    try {
      const answer = t.raw().post('/api/auth/login').send({ email: email.toUpperCase(), password: PASSWORD }).then((res) => res);
      await waitFor(async () => (await loginsWaitingForTheLock()) === 1);
      await recordFailures(10, () => email, 'client:elsewhere');
      await blocker.query('COMMIT');
      const res = await answer;
      expect(res.status).toBe(429);
      expect(res.body.detail).toContain('for this e-mail');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
    }
    expect(await t.query('SELECT 1 FROM admin_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1', [email])).toHaveLength(0);
  });

  it("waits for the client's lock (taken before the e-mail's), then counts that client's failures", async () => {
    const email = await newAdmin();
    // This client's key, as the API sees its address.
    await t.raw().post('/api/auth/login').send({ email, password: 'wrong-password' }).expect(401);
    const [{ client_key: clientKey }] = (await t.query<{ client_key: string }>('SELECT client_key FROM login_failures WHERE email_key = $1', [email])) as [
      { client_key: string },
    ];
    await holdLock(clientKey);
    try {
      const answer = t.raw().post('/api/auth/login').send({ email, password: PASSWORD }).then((res) => res);
      await waitFor(async () => (await loginsWaitingForTheLock()) === 1);
      await recordFailures(t.config.loginMaxFailuresPerClient, (i) => `someone${i}@example.com`, clientKey);
      await blocker.query('COMMIT');
      const res = await answer;
      expect(res.status).toBe(429);
      expect(res.body.detail).toContain('from this client');
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await t.query('DELETE FROM login_failures WHERE client_key = $1', [clientKey]);
    }
    // With the client's failures gone, the same login goes through.
    await t.api.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200);
  });
});
