import type { OpenAPIObject } from '@nestjs/swagger';
import type { RequestComponents } from './openapi-requests';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const BODY_METHODS: readonly string[] = ['post', 'put', 'patch'];
const problemContent = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

function operationsOf(document: OpenAPIObject): Array<{ path: string; method: string; operation: Json }> {
  const found: Array<{ path: string; method: string; operation: Json }> = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Json | undefined>)[method];
      if (operation) found.push({ path, method, operation });
    }
  }
  return found;
}

function describeDefault(value: unknown): string {
  return typeof value === 'string' ? `\`${value}\`` : `\`${JSON.stringify(value)}\``;
}

/**
 * Request bodies as the server takes them. A PATCH changes only what it names: it needs at least one
 * field (every PATCH answers `{}` with 400) and applies no default, so its schema declares none. A
 * create's defaults are real, but a `default` on a request property makes generated clients
 * (openapi-typescript) require it, so the default is stated in the description instead.
 */
export function documentRequestBodies(document: OpenAPIObject, requests: RequestComponents): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  const patched = new Set([...requests.bodies].filter(([, methods]) => methods.has('patch')).map(([name]) => name));
  for (const name of requests.all) {
    const schema = schemas[name];
    if (!schema) continue;
    if (patched.has(name)) schema['minProperties'] = 1;
    for (const property of Object.values((schema['properties'] ?? {}) as Record<string, Json>)) {
      if (!('default' in property)) continue;
      const description = typeof property['description'] === 'string' ? property['description'] : '';
      if (!patched.has(name) && !/default/i.test(description)) {
        property['description'] = `${description}${description && !/[.!?]$/.test(description) ? '.' : ''}${description ? ' ' : ''}Default: ${describeDefault(property['default'])}.`;
      }
      delete property['default'];
    }
  }
}

/**
 * Answers every operation can give before its handler runs: 400 for a NUL character in the query
 * string (or a malformed body), and for methods that take a body 413 (over 1 MiB) and 415 (not JSON).
 */
export function documentFrontDoorProblems(document: OpenAPIObject): void {
  for (const { path, method, operation } of operationsOf(document)) {
    const responses = (operation['responses'] ??= {}) as Record<string, Json>;
    const invalid = responses['400'];
    if (invalid && path.startsWith('/api/v1/') && 'RateLimit-Limit' in ((invalid['headers'] ?? {}) as Json)) {
      invalid['description'] = `${String(invalid['description'] ?? '')}. The RateLimit headers come once the API key is checked: not with \`invalid_json\` nor a body or query refused before that (a NUL character, a reserved key, nesting deeper than 64 levels, an object of more than 1,000 members, more than 100,000 values in all)`;
    }
    responses['400'] ??= {
      description:
        'A NUL character in the query string, or a malformed body (`validation_failed`, `invalid_json`): bodies may nest at most 64 levels, hold objects of at most 1,000 members and at most 100,000 values in all',
      content: problemContent,
    };
    if (BODY_METHODS.includes(method)) {
      responses['413'] ??= { description: 'Body over 1 MiB (`payload_too_large`)', content: problemContent };
      responses['415'] ??= { description: 'Body that is not application/json (`unsupported_media_type`)', content: problemContent };
    }
  }
}

/**
 * Each create's 201 answer links to what can be done with the new record: the GET, PATCH and DELETE
 * of `{path}/{id}` with the new `data.id` (path parameters of the create carried over), or, for a
 * create that makes a singleton at its own path (a schedule's calendar feed), that path's GET and DELETE.
 * Every 201 also names the new record in `Location`.
 */
export function documentCreateLinks(document: OpenAPIObject): void {
  const all = operationsOf(document);
  for (const { path, method, operation } of all) {
    const created = ((operation['responses'] ?? {}) as Record<string, Json>)['201'];
    if (method !== 'post' || !created) continue;
    const headers = (created['headers'] ??= {}) as Json;
    headers['Location'] = { description: 'The path of the new record', schema: { type: 'string' } };
    // `{path}/{id}`: the parameter naming the new record, or undefined for any other path.
    const childParam = (other: string) => (other.startsWith(`${path}/`) ? /^\{([^}/]+)\}$/.exec(other.slice(path.length + 1))?.[1] : undefined);
    const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const fromRequest = Object.fromEntries(pathParams.map((name) => [name, `$request.path.${name}`]));
    let targets = all.filter((other) => other.method !== 'post' && childParam(other.path) !== undefined);
    if (targets.length === 0) targets = all.filter((other) => other.path === path && other.method !== 'post');
    const parameters = (targetPath: string): Json => {
      const id = childParam(targetPath);
      return id === undefined ? fromRequest : { ...fromRequest, [id]: '$response.body#/data/id' };
    };
    if (targets.length === 0) continue;
    const links = (created['links'] ??= {}) as Json;
    for (const target of targets) {
      const operationId = target.operation['operationId'] as string;
      const summary = typeof target.operation['summary'] === 'string' ? target.operation['summary'] : operationId;
      links[operationId] = { operationId, parameters: parameters(target.path), description: `${summary}: the record just created` };
    }
  }
}

/**
 * Response headers written out in each response instead of `$ref`s to components: generated clients
 * (openapi-typescript) type a referenced header as always present, and none of these is (RateLimit-*
 * only when rate limiting is on, Idempotent-Replayed only on a replay). Components left unused go.
 */
export function inlineResponseHeaders(document: OpenAPIObject): void {
  const components = (document.components ?? {}) as Record<string, Record<string, Json> | undefined>;
  const headers = components['headers'] ?? {};
  for (const { operation } of operationsOf(document)) {
    for (const response of Object.values((operation['responses'] ?? {}) as Record<string, Json>)) {
      const listed = (response['headers'] ?? {}) as Record<string, Json>;
      for (const [name, header] of Object.entries(listed)) {
        const ref = header['$ref'];
        if (typeof ref !== 'string' || !ref.startsWith('#/components/headers/')) continue;
        const target = headers[ref.slice('#/components/headers/'.length)];
        if (!target) throw new Error(`unresolved header ${ref}`);
        listed[name] = JSON.parse(JSON.stringify(target)) as Json;
      }
    }
  }
  const text = JSON.stringify(document);
  for (const name of Object.keys(headers)) {
    if (!text.includes(`"#/components/headers/${name}"`)) delete headers[name];
  }
  if (components['headers'] && Object.keys(headers).length === 0) delete components['headers'];
}
