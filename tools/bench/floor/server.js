'use strict';
// The floor: the API's routes under load, answered with node:http and pg and nothing else in between.
// Same per-request work as the API: request id, the same security headers, JSON body parsing with the
// same limits, the NUL-byte check, one JSON access-log line per request (pino-http, same options),
// bearer-key authentication with the same cache, the rate limit and its headers, the scope check,
// the DTO's validation, the same SQL statements through a pool of the same size, the same JSON.
// It is what the same work costs in Node on this machine without a framework: the API's floor.

const http = require('node:http');
const { randomUUID } = require('node:crypto');
const querystring = require('node:querystring');
const { Pool } = require('pg');
const pinoHttp = require('pino-http');
const { Authenticator } = require('./auth');
const {
  AppConfig,
  MAX_BODY_BYTES,
  REQUEST_ID_PATTERN,
  findNulBytes,
  findBodyProblems,
  PROBLEM_TYPE_BASE,
  STATUS_TITLE,
  entityTagOf,
  noneMatchHits,
  paginationLinks,
} = require('./domain');
const { Problem } = require('./problem');
const { route } = require('./routes');

const env = process.env;
const PORT = Number(env.PORT ?? 3100);
// The API's own reading of LOG_LEVEL, API_KEY_CACHE_SECONDS and RATE_LIMIT_PER_MINUTE, defaults included.
const config = AppConfig.fromEnv(env);
const POOL_SIZE = 20; // DatabaseModule's default pool size per instance

/** What helmet sets with the API's options (bootstrap.ts), in the same order. */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: https://validator.swagger.io;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};

// The API's access log (apps/api/src/app.module.ts): the same pino-http options.
const httpLogger = pinoHttp({
  level: config.logLevel,
  genReqId: (req) => req.id,
  quietReqLogger: true,
  serializers: {
    req: (req) => ({ id: req.id, method: req.method, url: req.url }),
    res: (res) => ({ statusCode: res.statusCode }),
  },
  autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
});
const log = httpLogger.logger;

const pool = new Pool({
  connectionString: env.DATABASE_URL,
  max: POOL_SIZE,
  application_name: 'almanac-floor',
});
pool.on('error', (error) => log.warn({ err: error }, 'pool error'));
const authenticator = new Authenticator(pool, {
  cacheSeconds: config.apiKeyCacheSeconds,
  rateLimitPerMinute: config.rateLimitPerMinute,
  log,
});

/** As the API's adapter: a page's Link, a conditional route's ETag (and 304 for a GET that names it). */
function sendJson(res, status, headers, body, req, conditional = false) {
  const text = JSON.stringify(body);
  if (req && status === 200) {
    if (req.method === 'GET') {
      const link = paginationLinks(req.url, body);
      if (link) headers['Link'] = link;
    }
    if (conditional) {
      const tag = entityTagOf(text);
      headers['ETag'] = tag;
      if (req.method === 'GET' && noneMatchHits(req.headers['if-none-match'], tag)) {
        res.writeHead(304, headers);
        return res.end();
      }
    }
  }
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}

function sendProblem(res, req, headers, problem) {
  const body = {
    type: PROBLEM_TYPE_BASE + problem.code,
    title: STATUS_TITLE[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.detail ?? problem.message,
    code: problem.code,
    request_id: String(req.id ?? ''),
  };
  if (problem.errors && problem.errors.length > 0) body.errors = problem.errors;
  if (problem.status === 401) headers['WWW-Authenticate'] = 'Bearer';
  const text = JSON.stringify(body);
  headers['Content-Type'] = 'application/problem+json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(problem.status, headers);
  res.end(text);
}

function hasBody(req) {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** JSON bodies only, at most 1 MiB, UTF-8. */
function readJsonBody(req) {
  return new Promise((resolve, reject) => {
    if (!hasBody(req)) return resolve(undefined);
    const type = req.headers['content-type'] ?? '';
    if (!JSON_TYPE.test(type)) {
      req.resume();
      return reject(
        new Problem(415, 'unsupported_media_type', 'Request bodies must be sent as application/json.'),
      );
    }
    const declared = Number(req.headers['content-length']);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      return reject(new Problem(413, 'payload_too_large', 'The request body is larger than 1 MiB.'));
    }
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_BODY_BYTES)
        return reject(new Problem(413, 'payload_too_large', 'The request body is larger than 1 MiB.'));
      try {
        resolve(JSON.parse(Buffer.concat(chunks, size).toString('utf8')));
      } catch {
        reject(new Problem(400, 'invalid_json', 'The request body is not valid JSON.'));
      }
    });
  });
}

async function handle(req, res) {
  const given = req.headers['x-request-id'];
  req.id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
  httpLogger(req, res);
  const headers = { 'X-Request-Id': req.id, ...SECURITY_HEADERS };
  try {
    const mark = req.url.indexOf('?');
    const path = mark === -1 ? req.url : req.url.slice(0, mark);
    const query = mark === -1 ? {} : querystring.parse(req.url.slice(mark + 1));
    const body = await readJsonBody(req);
    // As the API: the parsed query is searched only when the raw URL holds an encoded NUL.
    const nul = findBodyProblems(body);
    if (req.url.includes('%00')) nul.unshift(...findNulBytes(query));
    if (nul.length > 0) throw new Problem(400, 'validation_failed', 'The request is invalid.', nul);

    if (req.method === 'GET' && path === '/health/ready') {
      await pool.query('SELECT 1');
      return sendJson(res, 200, headers, { status: 'ok' });
    }
    const found = route(req.method, path);
    if (!found) throw new Problem(404, 'not_found', 'No such resource.');

    const principal = await authenticator.authenticate(req.headers.authorization);
    if (!principal) throw new Problem(401, 'unauthorized', 'A valid API key is required.');
    const limited = authenticator.countRequest(principal, headers);
    if (limited) throw new Problem(limited.status, limited.code, limited.detail);
    if (!principal.scopes.includes(found.route.scope)) {
      throw new Problem(403, 'forbidden', `This API key lacks the ${found.route.scope} scope.`);
    }

    const result = await found.route.handler({ pool, principal, params: found.params, query, body });
    if (result.location) headers['Location'] = result.location;
    return sendJson(res, result.status ?? 200, headers, result.body, req, found.route.conditional);
  } catch (error) {
    if (error instanceof Problem) return sendProblem(res, req, headers, error);
    log.error({ err: error, request_id: req.id }, 'unhandled error while serving request');
    return sendProblem(res, req, headers, new Problem(500, 'internal', 'An internal error occurred.'));
  }
}

if (require.main === module) {
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      log.error({ err: error }, 'request failed');
      res.destroy();
    });
  });
  server.listen(PORT, '127.0.0.1', () =>
    process.stdout.write(`floor listening on http://127.0.0.1:${PORT}\n`),
  );
  const stop = () => {
    server.close();
    server.closeIdleConnections();
    pool.end().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
