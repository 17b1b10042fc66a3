import { TrustedProxies } from '@almanac/shared';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../support/test-app';

const PASSWORD = 'a-long-and-correct-password';
/** The proxy of these tests: X-Forwarded-For is believed from this address only. */
const PROXY = '127.0.0.1';

type Answer = { status: number; headers: Record<string, unknown>; body: any };

/** A login sent from a chosen loopback address (127.0.0.x), as a distinct client. */
function loginFrom(t: TestApp, localAddress: string, email: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = t.server.address() as AddressInfo;
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        path: '/api/auth/login',
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * One client's failed sign-ins are limited before any scrypt runs (login as a CPU sink), without
 * locking out the admins who sign in from that client: an e-mail that signed in from it in the last
 * 30 days still gets its right password accepted. Behind a trusted proxy the client is the address
 * the proxy names in X-Forwarded-For.
 */
describe('per-client login limit (e2e)', () => {
  let t: TestApp;
  let orgId: string;
  let counter = 0;

  async function newAdmin(): Promise<string> {
    counter += 1;
    const email = `admin${counter}@limits.example`;
    await t.identity.createUser({ organizationId: orgId, email, name: `Admin ${counter}`, password: PASSWORD, role: 'admin' });
    return email;
  }
  const failuresOf = async (clientKey: string) =>
    Number((await t.query<{ count: string }>('SELECT count(*) FROM login_failures WHERE client_key = $1', [clientKey]))[0]!.count);
  /** `count` failed logins with made-up e-mails, all at once: exactly as many as the limit allows are checked. */
  const stuff = (count: number, localAddress: string, headers: Record<string, string> = {}) =>
    Promise.all(Array.from({ length: count }, () => loginFrom(t, localAddress, `${randomUUID()}@random.example`, 'wrong-password', headers)));

  beforeAll(async () => {
    t = await createTestApp({ config: { loginMaxFailuresPerClient: 30, trustedProxies: TrustedProxies.parse(PROXY) } });
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    orgId = (await t.identity.createOrganization('Limits')).id;
  });
  afterAll(() => t.close());

  it('stops credential stuffing: 30 of 50 concurrent random-e-mail logins from one client reach the password check, the rest get 429', async () => {
    const email = await newAdmin();
    // All the statuses at once, so that a failure shows any other answer (a 503, say) among them.
    expect((await stuff(50, '127.0.0.3')).map((a) => a.status).sort()).toEqual([...Array(30).fill(401), ...Array(20).fill(429)]);
    // Only the 30 admitted attempts were recorded (and hashed); the 20 refused ones never got that far.
    expect(await failuresOf('client:127.0.0.3')).toBe(30);
    const limited = await loginFrom(t, '127.0.0.3', `${randomUUID()}@random.example`, 'wrong-password');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', detail: expect.stringContaining('from this client') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await failuresOf('client:127.0.0.3')).toBe(30);

    // An account that never signed in from this client waits like everyone there …
    expect((await loginFrom(t, '127.0.0.3', email, PASSWORD)).status).toBe(429);
    // … while another client signs in as usual.
    expect((await loginFrom(t, '127.0.0.4', email, PASSWORD)).status).toBe(200);
  });

  it('does not lock out an admin who signed in from the client before: after 30 failures there, the right password → 200', async () => {
    const email = await newAdmin();
    expect((await loginFrom(t, '127.0.0.5', email, PASSWORD)).status).toBe(200);
    expect(await t.query('SELECT client_key FROM login_known_clients WHERE email_key = $1', [email])).toEqual([{ client_key: 'client:127.0.0.5' }]);

    // Someone at the same address guesses 30 times; the address is over its limit for everyone else.
    expect((await stuff(30, '127.0.0.5')).map((a) => a.status)).toEqual(Array(30).fill(401));
    expect((await loginFrom(t, '127.0.0.5', `${randomUUID()}@random.example`, 'wrong-password')).status).toBe(429);
    expect(await failuresOf('client:127.0.0.5')).toBe(30);

    const signedIn = await loginFrom(t, '127.0.0.5', email.toUpperCase(), PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user.email).toBe(email);
    expect(String(signedIn.headers['set-cookie'])).toContain('almanac_session=');
  });

  it('bounds what a known client may still try: a wrong password gets the same 429, and the e-mail keeps its own limit of 10', async () => {
    const email = await newAdmin();
    expect((await loginFrom(t, '127.0.0.6', email, PASSWORD)).status).toBe(200);
    await stuff(30, '127.0.0.6');

    // Over the client's limit, a wrong password for the known e-mail is answered like every other
    // attempt from there (so the answer does not tell which e-mails signed in from it) …
    const wrong = await Promise.all(Array.from({ length: 12 }, () => loginFrom(t, '127.0.0.6', email, 'wrong-password')));
    expect(wrong.map((a) => a.status)).toEqual(Array(12).fill(429));
    // … but each was checked and counted for the e-mail, up to its limit of 10 failures in 15 minutes:
    expect(Number((await t.query<{ count: string }>('SELECT count(*) FROM login_failures WHERE email_key = $1', [email]))[0]!.count)).toBe(10);
    const locked = await loginFrom(t, '127.0.0.6', email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toContain('for this e-mail');
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    const email = await newAdmin();
    const answers = await stuff(30, '127.0.0.7', { 'X-Forwarded-For': '203.0.113.7' });
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(401));
    expect(await failuresOf('client:127.0.0.7')).toBe(30);
    expect(await failuresOf('client:203.0.113.7')).toBe(0);
    // Naming another address does not step around the limit.
    expect((await loginFrom(t, '127.0.0.7', email, PASSWORD, { 'X-Forwarded-For': '203.0.113.99' })).status).toBe(429);
  });

  it('behind the trusted proxy, counts each client by the address the proxy appended, the right-most untrusted one', async () => {
    const email = await newAdmin();
    // The client forged the first entry; the proxy appended the address it saw.
    const viaProxy = { 'X-Forwarded-For': '198.51.100.1, 203.0.113.20' };
    expect((await stuff(31, PROXY, viaProxy)).map((a) => a.status).sort()).toEqual([...Array(30).fill(401), 429]);
    expect(await failuresOf('client:203.0.113.20')).toBe(30);
    expect(await failuresOf('client:198.51.100.1')).toBe(0);
    expect(await failuresOf(`client:${PROXY}`)).toBe(0);
    // Another user behind the same proxy is a different client: not refused.
    expect((await loginFrom(t, PROXY, email, PASSWORD, { 'X-Forwarded-For': '203.0.113.21' })).status).toBe(200);
    expect(await t.query('SELECT client_key FROM login_known_clients WHERE email_key = $1', [email])).toEqual([{ client_key: 'client:203.0.113.21' }]);
  });
});
