import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { QueryFailedError } from 'typeorm';
import { startFeedServer } from '../admin/admin-fixtures';
import { createTestApp, LogLines, Tenant, TestApp } from '../support/test-app';

const ORIGIN = 'http://localhost:3000';

@ApiExcludeController()
@Controller('probe-logs')
class FailingController {
  @Get('unreachable')
  unreachable(): never {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    throw new QueryFailedError('INSERT INTO users (id, email) VALUES ($1, $2)', ['0192f0e0-0000-7000-8000-000000000000', 'ada@example.com'], refused);
  }

  @Get('bug')
  bug(): never {
    throw new Error('the handler broke', { cause: Object.assign(new Error('reading the setting failed'), { code: 'EINNER' }) });
  }

  @Get('refused')
  refused(): never {
    const driver = Object.assign(new Error('invalid input syntax for type integer: "ada@example.com"'), { code: '42804', detail: 'ada@example.com' });
    throw new QueryFailedError('SELECT id FROM bookings WHERE id = $1', ['ada@example.com'], driver);
  }

  @Get('thrown-string')
  thrownString(): never {
    throw 'a string';
  }
}

@Module({ controllers: [FailingController] })
class FailingModule {}

/**
 * What the logs say about failures (the error itself: type, message, code, cause chain, never the SQL
 * parameters), at which level (an expected 502/503 warns with its code, anything else 5xx is an
 * error), and that no URL is logged with the secret it carries.
 */
describe('the logs (e2e)', () => {
  const logs = new LogLines();
  let t: TestApp;
  let a: Tenant;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;

  beforeAll(async () => {
    feeds = await startFeedServer();
    t = await createTestApp({ logs, extraModules: [FailingModule], config: { calendarAllowPrivateHosts: true, webhookDispatcher: false } });
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
    await feeds.stop();
  });

  /** The line the error filter wrote for the request that answered `res`. */
  const errorLine = (res: { headers: Record<string, string> }) => logs.lines.find((l) => l['request_id'] === res.headers['x-request-id'] && 'err' in l)!;

  it('logs a database that cannot be reached as a warning with the driver error and its code, never the parameters', async () => {
    const res = await t.raw().get('/probe-logs/unreachable').expect(503);
    const line = errorLine(res);
    expect(line).toMatchObject({
      level: 40,
      msg: 'database unavailable',
      code: 'database_unavailable',
      status: 503,
      err: { type: 'QueryFailedError', statement: 'INSERT INTO users', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
    });
    expect(JSON.stringify(line)).not.toMatch(/ada@example|0192f0e0|VALUES|non-Error/);
  });

  it('logs an unexpected 500 as an error with its message, stack and cause chain', async () => {
    const res = await t.raw().get('/probe-logs/bug').expect(500);
    const line = errorLine(res);
    expect(line).toMatchObject({
      level: 50,
      msg: 'unhandled error while serving request',
      code: 'internal',
      err: { type: 'Error', message: 'the handler broke', stack: expect.stringContaining('the handler broke'), cause: { type: 'Error', message: 'reading the setting failed', code: 'EINNER' } },
    });
  });

  it('keeps the value a refused statement quotes out of its message', async () => {
    const res = await t.raw().get('/probe-logs/refused').expect(500);
    const line = errorLine(res);
    expect(line).toMatchObject({ level: 50, err: { code: '42804', message: 'invalid input syntax for type integer: "…"', statement: 'SELECT … FROM bookings' } });
    expect(JSON.stringify(line)).not.toContain('ada@example.com');
  });

  it('says what was thrown when it is not an Error', async () => {
    const res = await t.raw().get('/probe-logs/thrown-string').expect(500);
    expect(errorLine(res)).toMatchObject({ level: 50, err: { type: 'string', message: 'a string was thrown, not an Error' } });
  });

  it('logs an external calendar that cannot be read as a warning with upstream_failed and the reason', async () => {
    const email = 'logs-admin@example.com';
    await t.identity.createUser({ organizationId: a.orgId, email, name: 'Logs', password: 'correct horse battery', role: 'admin' });
    const login = await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email, password: 'correct horse battery' }).expect(200);
    const cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
    const schedule = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Imports' }).expect(201);
    await t.api
      .put(`/api/organizations/${a.orgId}/calendar-integration`)
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .send({ provider: 'ics', url: `${feeds.base}/down.ics`, schedule_id: schedule.body.data.id })
      .expect(200);
    const res = await t.api.post('/api/bookings/sync-external').set('Cookie', cookie).set('Origin', ORIGIN).send({ organizationId: a.orgId }).expect(502);
    expect(errorLine(res)).toMatchObject({
      level: 40,
      msg: 'external calendar could not be read',
      code: 'upstream_failed',
      status: 502,
      err: { type: 'UpstreamFailedError', code: 'upstream_failed', message: 'The external calendar could not be read: the feed answered HTTP 503.' },
    });
    expect(logs.text).not.toContain('non-Error');
  });

  it('never logs the token of a calendar feed or a public address, nor key and token parameters', async () => {
    const schedule = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Feed' }).expect(201);
    const feed = await t.api.post(`/api/v1/schedules/${schedule.body.data.id}/calendar-feed`).set(a.auth).expect(201);
    const token = /\/calendar\/([^/]+)\.ics$/.exec(feed.body.data.url)![1]!;
    await t.raw().get(`/calendar/${token}.ics`).expect(200);
    await t.raw().get(`/CALENDAR/${token}.ics?x=1`).expect(200);
    await t.raw().get(`/calendar/unknownSECRET1.ics`).expect(404);
    await t.raw().get('/public/v1/bookings/bkt_SECRET2/cancel').expect(404);
    await t.raw().get('/public/v1/previews/SECRET3').expect(404);
    await t.raw().get('/public/v1/posts.atom?lang=en&key=pk_SECRET4').expect(404);
    await t.raw().get('/api/v1/schedules?token=SECRET5').set(a.auth).expect(200);

    const urls = logs.lines.map((l) => (l['req'] as { url?: string } | undefined)?.url).filter((u): u is string => u !== undefined);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/calendar/[redacted].ics',
        '/CALENDAR/[redacted].ics?x=1',
        '/public/v1/bookings/[redacted]/cancel',
        '/public/v1/previews/[redacted]',
        '/public/v1/posts.atom?lang=en&key=[redacted]',
        '/api/v1/schedules?token=[redacted]',
      ]),
    );
    expect(logs.text).not.toContain(token);
    expect(logs.text).not.toMatch(/SECRET[0-9]/);
  });
});
