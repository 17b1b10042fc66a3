import { requestFingerprint } from '@almanac/identity';
import { createTestApp, TestApp } from '../support/test-app';
import { calls, Gate, gates, PROBE_TABLE_SQL, ProbeModule } from './support/probe.module';

/**
 * Idempotency-Key is generic: every POST /api/v1 gets it from a global interceptor. These tests use a
 * probe route (POST /api/v1/probe/widgets, mounted into the real app) whose handler the test can hold.
 */
describe('Idempotency-Key on POST /api/v1 (e2e)', () => {
  let t: TestApp;

  const widgets = (orgId: string) => t.query<{ id: string; name: string }>('SELECT id, name FROM probe_widgets WHERE organization_id = $1', [orgId]);
  const keys = (orgId: string) => t.query<{ key: string; state: string }>('SELECT key, state FROM idempotency_keys WHERE organization_id = $1', [orgId]);

  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ProbeModule] });
    await t.query(PROBE_TABLE_SQL);
  });
  afterAll(async () => {
    await t.close();
  });

  it('replays the stored response of the same request, with Idempotent-Replayed, and runs it once', async () => {
    const a = await t.tenant();
    const first = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'order-1').send({ name: 'Widget' }).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = calls.widgets;
    const replay = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'order-1').send({ name: 'Widget' }).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['location']).toBe(first.headers['location']);
    expect(calls.widgets).toBe(before); // the handler did not run again
    expect(await widgets(a.orgId)).toEqual([{ id: first.body.data.id, name: 'Widget' }]);
    expect(await keys(a.orgId)).toEqual([{ key: 'order-1', state: 'completed' }]);

    // Without the header, or with another key, the request runs again.
    await t.api.post('/api/v1/probe/widgets').set(a.auth).send({ name: 'Widget' }).expect(201);
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'order-2').send({ name: 'Widget' }).expect(201);
    expect(await widgets(a.orgId)).toHaveLength(3);
  });

  it('answers 422 idempotency_key_reused for a different request with the same key', async () => {
    const a = await t.tenant();
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'k').send({ name: 'One' }).expect(201);
    const res = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'k').send({ name: 'Two' }).expect(422);
    expect(res.body).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect((await widgets(a.orgId)).map((w) => w.name)).toEqual(['One']);
  });

  it('answers 409 idempotency_in_progress while the first request is still running, then replays it', async () => {
    const a = await t.tenant();
    const gate = new Gate();
    gates.slow = gate;
    try {
      const first = t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'slow-1').send({ name: 'slow' }).then((r) => r);
      await gate.arrived;
      expect(await keys(a.orgId)).toEqual([{ key: 'slow-1', state: 'in_progress' }]);
      const second = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'slow-1').send({ name: 'slow' }).expect(409);
      expect(second.body).toMatchObject({ status: 409, code: 'idempotency_in_progress' });
      gate.release();
      const done = await first;
      expect(done.status).toBe(201);
      const replay = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'slow-1').send({ name: 'slow' }).expect(201);
      expect(replay.body).toEqual(done.body);
      expect(await widgets(a.orgId)).toHaveLength(1);
    } finally {
      gates.slow = undefined;
    }
  });

  it('lets exactly one of many concurrent identical requests run', async () => {
    const a = await t.tenant();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => t.raw().post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'burst').send({ name: 'Burst' })),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of responses) expect([201, 409]).toContain(r.status);
    for (const r of created) expect(r.body.data.id).toBe(created[0]!.body.data.id);
    expect(await widgets(a.orgId)).toHaveLength(1);
  });

  it('does not store error responses: the key is released and the corrected request runs', async () => {
    const a = await t.tenant();
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'fix-me').send({ name: 42 }).expect(400);
    expect(await keys(a.orgId)).toEqual([]);
    // The same key with a corrected body is a fresh start, not a "reused" key.
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'fix-me').send({ name: 'Fixed' }).expect(201);
    expect(await widgets(a.orgId)).toHaveLength(1);
  });

  it('keeps keys per organization', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const ra = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'shared').send({ name: 'A' }).expect(201);
    const rb = await t.api.post('/api/v1/probe/widgets').set(b.auth).set('Idempotency-Key', 'shared').send({ name: 'B' }).expect(201);
    expect(rb.headers['idempotent-replayed']).toBeUndefined();
    expect(rb.body.data.id).not.toBe(ra.body.data.id);
  });

  it('keeps the response 24 hours, then treats the key as new', async () => {
    const a = await t.tenant();
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'day').send({ name: 'D' }).expect(201);
    t.clock.advance(24 * 60 * 60 * 1000 - 1000);
    const replay = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'day').send({ name: 'D' }).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    t.clock.advance(1000);
    const fresh = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'day').send({ name: 'D' }).expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await widgets(a.orgId)).toHaveLength(2);
    expect(await keys(a.orgId)).toHaveLength(1);
  });

  it('takes over a key whose first attempt died (in progress for over 5 minutes)', async () => {
    const a = await t.tenant();
    const now = t.clock.now();
    const hash = requestFingerprint('POST', '/api/v1/probe/widgets', { name: 'Orphan' });
    await t.query(
      `INSERT INTO idempotency_keys (attempt_id, organization_id, key, request_hash, state, created_at, locked_at, expires_at)
       VALUES (gen_random_uuid(), $1, 'orphan', $2, 'in_progress', $3, $3, $4)`,
      [a.orgId, hash, now, new Date(now.getTime() + 86_400_000)],
    );
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'orphan').send({ name: 'Orphan' }).expect(409);
    t.clock.advance(5 * 60 * 1000);
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'orphan').send({ name: 'Orphan' }).expect(201);
    expect(await keys(a.orgId)).toEqual([{ key: 'orphan', state: 'completed' }]);
  });

  it('refuses an empty or over-long key with 400', async () => {
    const a = await t.tenant();
    const long = await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'x'.repeat(256)).send({ name: 'L' }).expect(400);
    expect(long.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'must be 1-255 characters' }]);
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', '').send({ name: 'E' }).expect(400);
    await t.api.post('/api/v1/probe/widgets').set(a.auth).set('Idempotency-Key', 'y'.repeat(255)).send({ name: 'OK' }).expect(201);
    expect(await widgets(a.orgId)).toHaveLength(1);
  });

  it('works on a real route: POST /api/v1/schedules replayed creates one schedule', async () => {
    const a = await t.tenant();
    const first = await t.api.post('/api/v1/schedules').set(a.auth).set('Idempotency-Key', 'sched-1').send({ name: 'Front desk', timezone: 'Europe/Paris' }).expect(201);
    const replay = await t.api.post('/api/v1/schedules').set(a.auth).set('Idempotency-Key', 'sched-1').send({ name: 'Front desk', timezone: 'Europe/Paris' }).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['location']).toBe(`/api/v1/schedules/${first.body.data.id}`);
    expect(await t.query('SELECT id FROM schedules WHERE organization_id = $1', [a.orgId])).toEqual([{ id: first.body.data.id }]);
    await t.api.post('/api/v1/schedules').set(a.auth).set('Idempotency-Key', 'sched-1').send({ name: 'Back office' }).expect(422);
  });

  it('documents the Idempotency-Key header and its answers on every POST /api/v1 operation', () => {
    const paths = t.document['paths'] as Record<string, Record<string, any>>;
    const posts = Object.entries(paths).filter(([path, item]) => path.startsWith('/api/v1/') && item['post']);
    expect(posts.length).toBeGreaterThan(0);
    for (const [, item] of posts) {
      expect(item['post'].parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
      expect(item['post'].responses).toHaveProperty('409');
      expect(item['post'].responses).toHaveProperty('422');
    }
    const components = t.document['components'] as Record<string, any>;
    expect(components['parameters']['IdempotencyKey']).toMatchObject({ name: 'Idempotency-Key', in: 'header', schema: { maxLength: 255 } });
  });
});
