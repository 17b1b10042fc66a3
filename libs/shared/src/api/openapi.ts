import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CONDITIONAL_EXTENSION } from './conditional';
import { HEADER_TEXT_PATTERN } from './body-checks';
import { toOpenApi31 } from './openapi-31';
import { documentPublicApi } from './openapi-public';
import { documentCreateLinks, documentFrontDoorProblems, documentRequestBodies, inlineResponseHeaders } from './openapi-refinements';
import { documentRequestRules, operationIdOf } from './openapi-requests';

export const BEARER_SCHEME = 'bearer';
export const SESSION_SCHEME = 'session';
export const SESSION_COOKIE = 'almanac_session';
export const METRICS_SCHEME = 'metrics';

/** What each tag groups, shown above its operations. */
const TAGS: ReadonlyArray<[string, string]> = [
  ['health', 'Liveness and readiness probes, without authentication.'],
  ['auth', 'Admin sign-in: the `almanac_session` cookie that the admin endpoints under `/api` take.'],
  ['api-keys', 'The API key making the request: a quick way to check a key and its scopes.'],
  ['schedules', 'Calendars that bookings are made against, and their subscribable iCalendar feeds (scopes `bookings:*`).'],
  ['bookings', 'Bookings on a schedule: no overlaps, a status machine, custom metadata, one iCalendar file each (scopes `bookings:*`).'],
  ['event-types', 'Bookable kinds of appointment: duration, location, approval (scopes `bookings:*`).'],
  ['events', 'Public events and their registrations, with places and an optional waiting list (scopes `events:*`).'],
  ['posts', 'The blog: posts made of content blocks, categories, tags, full-text search and scheduled publishing (scopes `posts:*`).'],
  ['calendar-sync', "Admin only: an organization's external calendar (an iCalendar feed) and the import of its events as bookings."],
  ['webhooks', 'Signed deliveries of what changes to your endpoints, their delivery log, and the change feed (scopes `webhooks:*`).'],
  ['slots', "When an event type can be booked on a schedule: the schedule's availability, the type's rules, the bookings already made (scope `bookings:read`)."],
  ['admin-api-keys', "Admin only: the organization's API keys (list, create with the key shown once, revoke) for the admin console."],
  ['admin-schedules', "Admin only: the organization's schedules, for the admin console (e.g. the import's target)."],
  ['admin-webhooks', "Admin only: the organization's webhook endpoints and their deliveries, for the admin console."],
  ['operations', 'For whoever runs Almanac: Prometheus metrics (`METRICS_TOKEN`), and for admins the audit log and the erasure of a person\'s data.'],
];

/**
 * Builds the OpenAPI document from the app's controllers and DTOs, then states what the decorators
 * alone cannot: the validators' rules (openapi-requests.ts), the shared answers and headers, links,
 * and finally OpenAPI 3.1 (openapi-31.ts).
 */
export function buildOpenApiDocument(app: INestApplication, appUrl: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Almanac API')
    .setDescription(
      'Bookings, event types, events and blog behind one HTTP/JSON API. `/api/v1` takes a bearer API key; ' +
        'the admin endpoints under `/api` take the `almanac_session` cookie from `POST /api/auth/login`. ' +
        'Every error is an RFC 9457 problem (application/problem+json). Request bodies are JSON of at most 1 MiB; ' +
        'a NUL character anywhere (body or query), or a `__proto__`, `constructor` or `prototype` key anywhere in a body, ' +
        'is refused with 400 `validation_failed` naming the field.',
    )
    .setVersion('1.0.0')
    .setLicense('Proprietary', `${appUrl}/docs`)
    .addServer(appUrl)
    // An opaque key, not a JWT (DocumentBuilder's default bearerFormat): the description says its form.
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: undefined, description: 'API key: `alm_` followed by 32 letters and digits' }, BEARER_SCHEME)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, SESSION_SCHEME)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: undefined, description: 'The `METRICS_TOKEN` the server runs with' }, METRICS_SCHEME);
  for (const [name, description] of TAGS) builder.addTag(name, description);
  // A JSON copy: @nestjs/swagger hands out its decorator metadata objects, which the steps below must
  // not change, and leaves keys with undefined values (`x-enumNames`) that the served JSON does not have.
  const generated = SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: operationIdOf });
  const document = JSON.parse(JSON.stringify(generated)) as OpenAPIObject;
  const requests = documentRequestRules(app, document);
  documentRequestBodies(document, requests);
  applyV1Conventions(document);
  documentFrontDoorProblems(document);
  documentPublicApi(document);
  documentCreateLinks(document);
  inlineResponseHeaders(document);
  return toOpenApi31(declarePublicOperations(document));
}

/** Operations without a security requirement (health, login) say so explicitly: `security: []`. */
function declarePublicOperations(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation && !operation.security) operation.security = [];
    }
  }
  return document;
}

type Json = Record<string, unknown>;

const problemContent = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

// Sent once the API key has been checked (not when rate limiting is off): never on a 401, nor on the
// 413 and 415 of the body parser, which runs before the key guard (nor on its 400 `invalid_json`).
const RATE_LIMIT_HEADERS: Record<string, Json> = {
  'RateLimit-Limit': {
    description: "Units this API key may spend per minute: a request costs 1, an operation whose `x-rate-limit-cost` says more costs that",
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Units left in the current window after this request (on a 429: what is left, fewer than the request costs)',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': { description: 'Seconds until the window ends', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Policy': {
    description:
      'The quota policy, as draft-ietf-httpapi-ratelimit-headers spells it: `"per-key";q=<units>;w=60` (q units per 60-second window for this API key)',
    schema: { type: 'string', example: '"per-key";q=600;w=60' },
  },
  RateLimit: {
    description: 'Where this key stands in the policy (draft-ietf-httpapi-ratelimit-headers): `"per-key";r=<remaining>;t=<seconds to reset>`',
    schema: { type: 'string', example: '"per-key";r=599;t=42' },
  },
};
const WITHOUT_RATE_LIMIT_HEADERS: readonly string[] = ['401', '413', '415'];

/**
 * What every `/api/v1` operation shares, written once instead of on each controller: the RateLimit
 * response headers (and Retry-After on every 429, also outside /api/v1), and for POST the `Idempotency-Key` request header with
 * its 409/422 answers and the `Idempotent-Replayed` header of a replay.
 */
export function applyV1Conventions(document: OpenAPIObject): OpenAPIObject {
  const components = (document.components ??= {}) as Json;
  const headers = ((components['headers'] as Json | undefined) ?? {}) as Json;
  components['headers'] = headers;
  Object.assign(headers, RATE_LIMIT_HEADERS, {
    'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
    'Idempotent-Replayed': { description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
  });
  const parameters = ((components['parameters'] as Json | undefined) ?? {}) as Json;
  components['parameters'] = parameters;
  parameters['IdempotencyKey'] = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the POST safe to retry: the first successful response is kept 24 h for this organization and key and ' +
      'returned again (with `Idempotent-Replayed: true`) for the same request; the same key with a different request ' +
      'gets 422 `idempotency_key_reused`, and while the first is still running 409 `idempotency_in_progress`. ' +
      'Error responses are not kept.',
    // Header text with something but spaces in it: HTTP drops the spaces around a header value.
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E\\xA0-\\xFF]*[\\x21-\\x7E\\xA0-\\xFF][\\x20-\\x7E\\xA0-\\xFF]*$' },
  };
  Object.assign(headers, {
    ETag: { description: 'Strong entity tag of the record as sent; changes with every change of it', schema: { type: 'string' } },
  });
  Object.assign(parameters, {
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An ETag of this record from an earlier answer: 304 without a body while it is still current',
      schema: { type: 'string', pattern: HEADER_TEXT_PATTERN },
    },
    IfMatch: {
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'The ETag of the record as the client last saw it (or `*`): if the record has changed since, 412 `precondition_failed` and nothing is changed. ' +
        'Checked in the same transaction as the write, so of two writes sent with the same ETag only one can pass.',
      schema: { type: 'string', pattern: HEADER_TEXT_PATTERN },
    },
  });
  const rateRefs = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const v1 = path.startsWith('/api/v1/');
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const responses = (operation['responses'] ??= {}) as Record<string, Json>;
      if (operation[CONDITIONAL_EXTENSION]) documentConditional(method, operation, responses);
      // Anything that reads the database answers 503 `database_unavailable` while it is unreachable;
      // the metrics answer without the database's gauges rather than fail.
      if (path !== '/health/live' && path !== '/metrics') {
        responses['503'] ??= {
          description: 'The database is unreachable (`database_unavailable`); retry after Retry-After',
          content: problemContent,
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
        };
      }
      if (v1 && method === 'post') {
        const params = (operation['parameters'] ??= []) as Json[];
        params.push({ $ref: '#/components/parameters/IdempotencyKey' });
        responses['400'] ??= { description: 'Invalid input (`validation_failed`, `invalid_json`), also a malformed Idempotency-Key', content: problemContent };
        responses['409'] ??= { description: 'Conflict with the current state (`idempotency_in_progress`, `write_conflict`, …)', content: problemContent };
        responses['422'] ??= { description: 'The request cannot be processed (`idempotency_key_reused`, …)', content: problemContent };
      }
      // A write the database kept aborting for concurrent ones (deadlocks), even after retries.
      if (method !== 'get') {
        responses['409'] ??= {
          description: 'The request met concurrent changes to the same data and was not applied (`write_conflict`); send it again',
          content: problemContent,
        };
      }
      for (const [status, response] of Object.entries(responses)) {
        if ('$ref' in response || (!v1 && status !== '429' && status !== '503')) continue;
        const responseHeaders = (response['headers'] ??= {}) as Json;
        if (v1 && !WITHOUT_RATE_LIMIT_HEADERS.includes(status)) Object.assign(responseHeaders, rateRefs);
        if (status === '429' || status === '503') responseHeaders['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
        if (v1 && method === 'post' && status.startsWith('2')) responseHeaders['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
      }
    }
  }
  return document;
}

/**
 * ETag, 304 and If-None-Match on a `@Conditional()` GET; If-Match and 412 on a write (PATCH, DELETE,
 * or a POST that changes the record, such as a post's restore), and the new ETag on a write that
 * answers the record.
 */
function documentConditional(method: string, operation: Json, responses: Record<string, Json>): void {
  delete operation[CONDITIONAL_EXTENSION];
  const params = (operation['parameters'] ??= []) as Json[];
  const ok = responses['200'];
  if (ok && method !== 'delete') {
    ok['headers'] = { ...(ok['headers'] as Json | undefined), ETag: { $ref: '#/components/headers/ETag' } };
  }
  if (method === 'get') {
    params.push({ $ref: '#/components/parameters/IfNoneMatch' });
    responses['304'] = { description: 'Not modified: If-None-Match names the current ETag (no body)', headers: { ETag: { $ref: '#/components/headers/ETag' } } };
  } else {
    params.push({ $ref: '#/components/parameters/IfMatch' });
    responses['412'] = { description: 'If-Match does not name the current ETag (`precondition_failed`); nothing was changed', content: problemContent };
  }
}

export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'Almanac API',
  });
}
