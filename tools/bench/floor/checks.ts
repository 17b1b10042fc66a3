import type { ErrorObject, ValidateFunction } from 'ajv';
import { MAX_REPORTED_ERRORS, NotFoundError, queryBoolean, queryInt, ValidationFailedError, type FieldError } from '@almanac/shared';
import { OpenApiSchemas } from '@almanac/shared/testing';

type Json = Record<string, unknown>;

/** How one operation's input is checked: compiled once from the app's own OpenAPI document. */
export interface OperationChecks {
  scope: string | undefined;
  /** The first 2xx status the document gives (Nest's default: 201 for POST, 200 otherwise). */
  status: number;
  /** `@Conditional()` routes: their 200 answers carry an ETag. */
  conditional: boolean;
  /** Returns the path parameters, or throws 404 as `UuidParam` does. */
  params(raw: Record<string, string>, resources: Record<string, string>): Record<string, string>;
  /** Returns the documented query parameters, converted; throws 400 `validation_failed`. */
  query(raw: Record<string, unknown>): Record<string, unknown>;
  /** Throws 400 `validation_failed` unless the body is valid for the documented request body. */
  body(body: unknown): void;
}

interface QueryParameter {
  name: string;
  convert: (value: unknown) => unknown;
}

/**
 * The request checks of the floor: Ajv (JSON Schema 2020-12, ajv-formats, strict) over the schemas
 * of the document the app serves at /openapi.json, in place of class-validator and
 * class-transformer. Their messages differ from class-validator's; the fields they name do not.
 */
export class DocumentChecks {
  private readonly schemas: OpenApiSchemas;

  constructor(document: Json) {
    this.schemas = new OpenApiSchemas(document);
  }

  forOperation(method: string, path: string): OperationChecks {
    const found = this.schemas.operations().find((o) => o.method === method.toLowerCase() && o.path === path);
    if (!found) throw new Error(`the document has no operation ${method} ${path}`);
    const operation = found.operation;
    const parameters = (operation['parameters'] ?? []) as Json[];
    const responses = (operation['responses'] ?? {}) as Record<string, Json>;
    const status = Number(Object.keys(responses).find((code) => /^2\d\d$/.test(code)) ?? 200);

    const pathChecks = parameters
      .filter((p) => p['in'] === 'path')
      .map((p) => ({ name: String(p['name']), validate: this.schemas.compile(p['schema'] as Json) }));

    const queryParameters: QueryParameter[] = [];
    const querySchema: Json = { type: 'object', properties: {}, required: [] };
    for (const p of parameters.filter((q) => q['in'] === 'query')) {
      const name = String(p['name']);
      const schema = p['schema'] as Json;
      (querySchema['properties'] as Json)[name] = schema;
      if (p['required'] === true) (querySchema['required'] as string[]).push(name);
      queryParameters.push({ name, convert: converterFor(schema) });
    }
    const validateQuery = this.schemas.compile(querySchema);

    const bodySchema = this.schemas.requestBodySchema(found);
    const validateBody = bodySchema && this.schemas.compile(bodySchema);

    return {
      scope: operation['x-required-scope'] as string | undefined,
      status,
      conditional: Boolean((responses['200']?.['headers'] as Json | undefined)?.['ETag']),
      params: (raw, resources) => {
        for (const { name, validate } of pathChecks) {
          if (!validate(raw[name])) throw new NotFoundError(resources[name]);
        }
        return raw;
      },
      query: (raw) => {
        // As the API's query pipe: unknown parameters are dropped, known ones converted when well-formed.
        const query: Record<string, unknown> = {};
        for (const { name, convert } of queryParameters) if (raw[name] !== undefined) query[name] = convert(raw[name]);
        check(validateQuery, query);
        return query;
      },
      body: (body) => {
        if (!validateBody) return;
        // As the API's validation pipe: a body that is not one JSON object gets one error.
        if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
          throw new ValidationFailedError([{ field: 'body', message: 'must be a JSON object' }]);
        }
        check(validateBody, body ?? {});
      },
    };
  }
}

function converterFor(schema: Json): (value: unknown) => unknown {
  const types = ([] as unknown[]).concat(schema['type'] ?? []);
  if (types.includes('integer')) return queryInt;
  if (types.includes('boolean')) return queryBoolean;
  return (value) => value;
}

function check(validate: ValidateFunction, value: unknown): void {
  if (validate(value)) return;
  throw new ValidationFailedError(fieldErrors(validate.errors ?? []).slice(0, MAX_REPORTED_ERRORS));
}

/** Ajv's errors as the API's `errors[]`: `attendee.email`, `content[2].level`; one entry per field and message. */
export function fieldErrors(errors: readonly ErrorObject[]): FieldError[] {
  const found = new Map<string, FieldError>();
  const specific = new Set<string>();
  const entries = errors.map((error) => {
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') segments.push(String(error.params['missingProperty']));
    if (error.keyword === 'additionalProperties') {
      const name = String(error.params['additionalProperty']);
      segments.push(name);
      message = `property ${name} should not exist`;
    }
    const field = segments.reduce((path, s) => (/^\d+$/.test(s) && path ? `${path}[${s}]` : path ? `${path}.${s}` : s), '') || 'body';
    const summary = ['anyOf', 'oneOf', 'if'].includes(error.keyword);
    if (!summary) specific.add(field);
    return { field, message, summary };
  });
  for (const { field, message, summary } of entries) {
    // "must match a schema in anyOf" says nothing the errors of its branches do not.
    if (summary && specific.has(field)) continue;
    found.set(`${field}\u0000${message}`, { field, message });
  }
  return [...found.values()];
}
