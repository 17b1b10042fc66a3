import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../support/test-app';

const PASSWORD = 'a-long-and-correct-password';

/** A login sent from a chosen loopback address (127.0.0.x), as a distinct client. */
function loginFrom(t: TestApp, localAddress: string, email: string, password: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const { port } = t.server.address() as AddressInfo;
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, localAddress, path: '/api/auth/login', method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } },
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

/** Issue 12 item 7: login as a CPU sink. One client's failures are limited before any scrypt runs. */
describe('per-client login limit (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { loginMaxFailuresPerClient: 30 } });
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    const org = await t.identity.createOrganization('Limits');
    await t.identity.createUser({ organizationId: org.id, email: 'admin@limits.example', name: 'Admin', password: PASSWORD, role: 'admin' });
  });
  afterAll(() => t.close());

  it('lets 30 of 50 concurrent random-e-mail logins from one client reach the password check; the rest get 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => loginFrom(t, '127.0.0.3', `${randomUUID()}@random.example`, 'wrong-password')),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.body).toMatchObject({ code: 'rate_limited', detail: expect.stringContaining('from this client') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const [{ count }] = await t.query<{ count: string }>(`SELECT count(*) FROM login_failures WHERE client_key = 'client:127.0.0.3'`);
    expect(count).toBe('30');

    // The same client is refused even with the right password, before it is checked …
    expect((await loginFrom(t, '127.0.0.3', 'admin@limits.example', PASSWORD)).status).toBe(429);
    // … while another client signs in as usual.
    expect((await loginFrom(t, '127.0.0.4', 'admin@limits.example', PASSWORD)).status).toBe(200);
  });
});
