import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { DocumentRoutes } from './openapi-routes';

type Json = Record<string, unknown>;

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Json }>; headers?: Record<string, { required?: boolean } | undefined> }>;
}

/**
 * Headers whose presence the document states per response: one of these on an answer that does not
 * document it is drift (RateLimit-* on a 413, say).
 */
const TRACKED_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'idempotent-replayed', 'location'];

/** Makes every documented object strict: a property the document does not name is drift. */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    copy[key] = key === 'properties' || key === 'patternProperties' ? mapValues(value as Json) : closeObjects(value);
  }
  if (copy['properties'] && copy['additionalProperties'] === undefined) copy['additionalProperties'] = false;
  return copy;
}
function mapValues(record: Json): Json {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, closeObjects(v)]));
}

export interface CheckedResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Checks real responses against the app's own OpenAPI document: the operation must exist, the
 * status must be documented, and the body must match the documented schema exactly.
 */
export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: DocumentRoutes<Operation>;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    const components = closeObjects((document['components'] ?? {}) as Json) as Json;
    this.ajv.addSchema({ $id: 'openapi', components }, 'openapi');
    this.routes = new DocumentRoutes<Operation>(document);
  }

  /** Returns a list of problems; empty when the response matches the document. */
  check(method: string, url: string, response: CheckedResponse): string[] {
    const path = url.split('?')[0]!;
    const route = this.routes.find(method, path);
    const status = response.status;
    const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (!route) {
      if (status === 404 || status === 401 || status === 415 || status === 413 || status === 400) {
        return contentType === 'application/problem+json' ? this.validate('#/components/schemas/Problem', response.body, `${method} ${path}`) : [`${method} ${path} ${status}: not a problem body`];
      }
      return [`${method.toUpperCase()} ${path}: operation missing from the OpenAPI document`];
    }
    const documented = route.operation.responses?.[String(status)] ?? route.operation.responses?.['default'];
    const where = `${method.toUpperCase()} ${route.path} ${status}`;
    if (!documented) return [`${where}: status not documented`];
    const documentedHeaders = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
    const undocumented = TRACKED_HEADERS.filter((name) => response.headers[name] !== undefined && !documentedHeaders.includes(name));
    if (undocumented.length > 0) return [`${where}: sends ${undocumented.join(', ')}, which the document does not list for this answer`];
    const missing = Object.entries(documented.headers ?? {})
      .filter(([name, header]) => header?.required === true && response.headers[name.toLowerCase()] === undefined)
      .map(([name]) => name);
    if (missing.length > 0) return [`${where}: lacks ${missing.join(', ')}, which the document says this answer always carries`];
    if (!documented.content) {
      return response.body && Object.keys(response.body as Json).length > 0 && contentType.includes('json') ? [`${where}: body not documented`] : [];
    }
    const media = documented.content[contentType];
    if (!media) return [`${where}: content type ${contentType || '(none)'} not documented (${Object.keys(documented.content).join(', ')})`];
    if (!media.schema) return [];
    return this.validate(media.schema, response.body, where);
  }

  private validate(schema: Json | string, body: unknown, where: string): string[] {
    const key = typeof schema === 'string' ? schema : JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      const root = typeof schema === 'string' ? { $ref: `openapi${schema}` } : (closeObjects(rewriteRefs(schema)) as Json);
      validate = this.ajv.compile(root);
      this.cache.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${where}: body${e.instancePath} ${e.message} ${e.params ? JSON.stringify(e.params) : ''}`);
  }
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? `openapi${v}` : rewriteRefs(v)]),
  );
}
