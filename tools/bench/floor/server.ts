// The floor: the benchmarked routes on node:http, answered by the app's own controllers, services,
// repositories, mappers, API-key authenticator and rate limiter (taken from the real application,
// built as main.ts builds it but never listening), with the same front door (request id, access log,
// security headers), the same body limits, the same problem documents and the same ETag/Link work.
// What it leaves out is the framework: Express's router and body parser, Nest's guards,
// interceptors and pipes, class-validator and class-transformer (Ajv over the app's own OpenAPI
// document checks the input instead). The API's req/s ÷ the floor's prices exactly that.
import 'reflect-metadata';
import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Response } from 'express';
import {
  AppConfig,
  entityTagOf,
  findBodyProblems,
  findHeaderProblems,
  findNulBytes,
  HttpProblem,
  IfMatchHeader,
  isUtf8ContentType,
  loggableError,
  MAX_BODY_BYTES,
  MAX_REPORTED_ERRORS,
  type FieldError,
  noneMatchHits,
  paginationLinks,
  problemBody,
  rateLimitedProblem,
  rateLimitHeaders,
  toProblem,
  ForbiddenError,
  UnauthorizedError,
} from '@almanac/shared';
import { createApp, frontDoorOf } from '../../../apps/api/src/bootstrap';
import { HealthController } from '../../../libs/shared/src/health/health.controller';
import { ApiKeyAuthenticator } from '../../../libs/identity/src/lib/application/api-key-authenticator';
import { ApiRateLimiter } from '../../../libs/identity/src/lib/application/api-rate-limiter';
import { RATE_LIMIT_POLICY, RATE_LIMIT_WINDOW_SECONDS } from '../../../libs/identity/src/lib/domain/fixed-window-rate-limiter';
import { DocumentChecks, type OperationChecks } from './checks';
import { floorRoutes, type FloorRoute } from './routes';

type Request = IncomingMessage & { id: string };
type Headers = OutgoingHttpHeaders;

interface Route extends FloorRoute {
  segments: string[];
  checks: OperationChecks;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** As `jsonBodyMiddleware`: JSON only, UTF-8 only, at most 1 MiB, the same body check; the same problems otherwise. */
function readJsonBody(req: IncomingMessage): Promise<{ body: unknown; errors: FieldError[] }> {
  return new Promise((resolve, reject) => {
    if (!hasBody(req)) return resolve({ body: undefined, errors: [] });
    const type = req.headers['content-type'] ?? '';
    if (!JSON_TYPE.test(type) || !isUtf8ContentType(type)) {
      req.resume();
      return reject(new HttpProblem({ status: 415, code: 'unsupported_media_type', detail: 'Request bodies must be sent as application/json.' }));
    }
    const tooLarge = () => new HttpProblem({ status: 413, code: 'payload_too_large', detail: 'The request body is larger than 1 MiB.' });
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      req.resume();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(tooLarge());
      const raw = Buffer.concat(chunks, size);
      if (!isUtf8(raw)) return reject(new HttpProblem({ status: 400, code: 'invalid_json', detail: 'The request body is not valid UTF-8.' }));
      const problems = findBodyProblems(raw);
      if (problems.shape) return reject(new HttpProblem({ status: 400, code: 'validation_failed', detail: 'The request is invalid.', errors: problems.errors }));
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return reject(new HttpProblem({ status: 400, code: 'invalid_json', detail: 'The request body is not valid JSON.' }));
      }
      resolve({ body, errors: problems.errors });
    });
  });
}

function match(routes: readonly Route[], method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    if (route.method !== method || route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length && matched; i++) {
      const expected = route.segments[i]!;
      if (expected.startsWith('{')) {
        try {
          params[expected.slice(1, -1)] = decodeURIComponent(segments[i]!);
        } catch {
          matched = false;
        }
      } else matched = expected === segments[i];
    }
    if (matched) return { route, params };
  }
  return undefined;
}

/** As `AlmanacExpressAdapter.reply`: one JSON.stringify, a page's Link, a conditional route's ETag and 304. */
function sendJson(req: Request, res: ServerResponse, headers: Headers, status: number, body: unknown, conditional: boolean): void {
  const text = JSON.stringify(body);
  if (status === 200) {
    if (req.method === 'GET') {
      const link = paginationLinks(req.url ?? '', body);
      if (link) headers['Link'] = link;
    }
    if (conditional && req.method !== 'DELETE') {
      const tag = entityTagOf(text);
      headers['ETag'] = tag;
      if (req.method !== 'PATCH' && noneMatchHits(req.headers['if-none-match'], tag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
    }
  }
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}

async function main(): Promise<void> {
  const config = AppConfig.fromEnv();
  const port = Number(process.env['PORT'] ?? 3100);
  const { app, document } = await createApp({ config, shutdownHooks: false });
  const { steps, accessLog } = frontDoorOf(config);
  const log = accessLog.logger;
  const authenticator = app.get(ApiKeyAuthenticator);
  const rateLimiter = app.get(ApiRateLimiter);
  const health = app.get(HealthController);
  const checks = new DocumentChecks(document as unknown as Record<string, unknown>);
  const routes: Route[] = floorRoutes(app).map((route) => ({
    ...route,
    segments: route.path.split('/'),
    checks: checks.forOperation(route.method, route.path),
  }));

  const answerProblem = (req: Request, res: ServerResponse, headers: Headers, error: unknown): void => {
    const init = toProblem(error);
    if (init.status >= 500) log.error({ err: loggableError(error), request_id: req.id }, 'unhandled error while serving request');
    Object.assign(headers, init.headers);
    if (init.status === 401) headers['WWW-Authenticate'] = 'Bearer';
    const text = JSON.stringify(problemBody(init, req.id));
    headers['Content-Type'] = 'application/problem+json; charset=utf-8';
    headers['Content-Length'] = Buffer.byteLength(text);
    res.writeHead(init.status, headers);
    res.end(text);
  };

  const handle = async (req: Request, res: ServerResponse): Promise<void> => {
    for (const step of steps) step(req, res);
    const headers: Headers = {};
    try {
      const url = req.url ?? '/';
      const mark = url.indexOf('?');
      const path = mark === -1 ? url : url.slice(0, mark);
      const rawQuery = mark === -1 ? {} : parseQuery(url.slice(mark + 1));
      const { body, errors } = await readJsonBody(req);
      const problems = [...findHeaderProblems(req.headers), ...(url.includes('%00') ? findNulBytes(rawQuery) : []), ...errors].slice(0, MAX_REPORTED_ERRORS);
      if (problems.length > 0) throw new HttpProblem({ status: 400, code: 'validation_failed', detail: 'The request is invalid.', errors: problems });

      if (req.method === 'GET' && path === '/health/ready') return sendJson(req, res, headers, 200, await health.ready(), false);
      const found = match(routes, req.method ?? '', path);
      if (!found) throw new HttpProblem({ status: 404, code: 'not_found', detail: 'No such resource.' });
      const { route, params } = found;

      // ApiKeyGuard's work: the key, the rate limit and its headers, the scope.
      const principal = await authenticator.authenticate(req.headers.authorization);
      if (!principal) throw new UnauthorizedError('A valid API key is required.');
      const decision = rateLimiter.hit(principal.apiKeyId);
      if (decision) {
        Object.assign(headers, rateLimitHeaders(RATE_LIMIT_POLICY, decision, RATE_LIMIT_WINDOW_SECONDS));
        if (!decision.allowed) throw rateLimitedProblem(`This API key made more than ${decision.limit} requests in a minute.`, decision.resetSeconds);
      }
      const scope = route.checks.scope;
      if (scope && !principal.scopes.includes(scope as never)) throw new ForbiddenError(`This API key lacks the ${scope} scope.`);

      // The pipes' work: path parameters, query and body against the document.
      const checkedParams = route.checks.params(params, route.resources ?? {});
      const query = route.checks.query(rawQuery);
      route.checks.body(body);
      const response = {
        setHeader: (name: string, value: string) => void (headers[name] = value),
        location: (value: string) => void (headers['Location'] = value),
      } as unknown as Response;
      const result = await route.call({
        principal,
        params: checkedParams,
        query: query as never,
        body: body as never,
        ifMatch: new IfMatchHeader(req.headers['if-match']),
        response,
      });
      sendJson(req, res, headers, route.checks.status, result, route.checks.conditional);
    } catch (error) {
      answerProblem(req, res, headers, error);
    }
  };

  const server = createServer((req, res) => {
    handle(req as Request, res).catch((error: unknown) => {
      log.error({ err: loggableError(error) }, 'request failed');
      res.destroy();
    });
  });
  server.listen(port, '127.0.0.1', () => process.stdout.write(`floor listening on http://127.0.0.1:${port}\n`));
  const stop = (): void => {
    server.close();
    server.closeIdleConnections();
    void app.close().finally(() => process.exit(0));
  };
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`the floor failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
