import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { DocumentRoutes } from './openapi-routes';

type Json = Record<string, unknown>;

const BASE = 'https://almanac.invalid/openapi/schemas/';

/** A schema somewhere in the document, with where it is (for messages). */
export interface LocatedSchema {
  where: string;
  schema: Json;
}

/** An example the document gives, with the schema it must satisfy. */
export interface LocatedExample extends LocatedSchema {
  example: unknown;
}

export interface DocumentedOperation {
  path: string;
  method: string;
  operation: Json;
}

/** `#/components/schemas/X` → an absolute id, so each component can be its own Ajv schema. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/') ? BASE + value.slice('#/components/schemas/'.length) : rewriteRefs(value),
    ]),
  );
}

/**
 * The document's schemas as Ajv sees them in strict mode, with the dialect OpenAPI 3.1 prescribes
 * (JSON Schema 2020-12) and the formats of ajv-formats. Nothing is relaxed: no added
 * `additionalProperties`, no coercion. OpenAPI's own schema keywords (`discriminator`, `xml`,
 * `externalDocs`) are annotations here; `nullable` or `example` would be errors (3.0 leftovers).
 */
export class OpenApiSchemas {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly routes: DocumentRoutes;

  constructor(readonly document: Json) {
    this.routes = new DocumentRoutes(document);
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    this.ajv.addVocabulary(['discriminator', 'xml', 'externalDocs']);
    // Ajv knows OpenAPI 3.0's `nullable`; a 3.1 document has none, so here it is an unknown keyword.
    this.ajv.removeKeyword('nullable');
    const schemas = (((document['components'] ?? {}) as Json)['schemas'] ?? {}) as Record<string, Json>;
    for (const [name, schema] of Object.entries(schemas)) this.ajv.addSchema({ ...(rewriteRefs(schema) as Json), $id: BASE + name });
  }

  operations(): DocumentedOperation[] {
    return this.routes.all;
  }

  /** The operation a concrete request goes to (literal segments win over parameters). */
  operationFor(method: string, url: string): DocumentedOperation | undefined {
    return this.routes.find(method, url);
  }

  operationById(operationId: string): DocumentedOperation {
    const found = this.operations().find((o) => o.operation['operationId'] === operationId);
    if (!found) throw new Error(`no operation ${operationId}`);
    return found;
  }

  requestBodySchema(operation: DocumentedOperation): Json | undefined {
    const content = ((operation.operation['requestBody'] as Json | undefined)?.['content'] ?? {}) as Record<string, Json>;
    return content['application/json']?.['schema'] as Json | undefined;
  }

  parameterSchema(operation: DocumentedOperation, location: 'path' | 'query' | 'header', name: string): Json {
    const parameters = ((operation.operation['parameters'] ?? []) as Json[]).map((p) => this.resolveParameter(p));
    const parameter = parameters.find((p) => p['in'] === location && p['name'] === name);
    if (!parameter) throw new Error(`${operation.method.toUpperCase()} ${operation.path}: no ${location} parameter ${name}`);
    return parameter['schema'] as Json;
  }

  /** A parameter, or the one of components.parameters its `$ref` names. */
  private resolveParameter(parameter: Json): Json {
    const ref = parameter['$ref'];
    if (typeof ref !== 'string') return parameter;
    const components = (this.document['components'] ?? {}) as Record<string, Record<string, Json> | undefined>;
    return components['parameters']?.[ref.slice('#/components/parameters/'.length)] ?? parameter;
  }

  /**
   * For a request the server accepted (2xx): the body must be valid against the operation's
   * documented request body, or the document is stricter than the server.
   */
  checkAcceptedRequest(method: string, url: string, body: unknown): string[] {
    const operation = this.operationFor(method, url);
    const schema = operation && this.requestBodySchema(operation);
    if (!operation || !schema || body === undefined) return [];
    return this.validate(schema, body).map((e) => `${method.toUpperCase()} ${operation.path}: the server accepted a body the document refuses: ${e}`);
  }

  /** The Ajv validator of a schema of the document (compiled once per distinct schema). */
  compile(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema) as Json);
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** Errors of `value` against `schema` (empty when valid). Compiling in strict mode throws on a bad schema. */
  validate(schema: Json, value: unknown): string[] {
    const validate = this.compile(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }

  /** Every schema of the document: components, parameters, headers, request and response bodies. */
  allSchemas(): LocatedSchema[] {
    const found: LocatedSchema[] = [];
    const components = (this.document['components'] ?? {}) as Record<string, Record<string, Json> | undefined>;
    for (const [name, schema] of Object.entries(components['schemas'] ?? {})) found.push({ where: `#/components/schemas/${name}`, schema });
    for (const [name, header] of Object.entries(components['headers'] ?? {})) if (header['schema']) found.push({ where: `#/components/headers/${name}`, schema: header['schema'] as Json });
    for (const [name, parameter] of Object.entries(components['parameters'] ?? {})) if (parameter['schema']) found.push({ where: `#/components/parameters/${name}`, schema: parameter['schema'] as Json });
    for (const { path, method, operation } of this.operations()) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of (operation['parameters'] ?? []) as Json[]) if (parameter['schema']) found.push({ where: `${at} parameter ${String(parameter['name'])}`, schema: parameter['schema'] as Json });
      for (const [type, media] of Object.entries(((operation['requestBody'] as Json | undefined)?.['content'] ?? {}) as Record<string, Json>)) {
        if (media['schema']) found.push({ where: `${at} request ${type}`, schema: media['schema'] as Json });
      }
      for (const [status, response] of Object.entries((operation['responses'] ?? {}) as Record<string, Json>)) {
        for (const [type, media] of Object.entries((response['content'] ?? {}) as Record<string, Json>)) {
          if (media['schema']) found.push({ where: `${at} ${status} ${type}`, schema: media['schema'] as Json });
        }
        for (const [name, header] of Object.entries((response['headers'] ?? {}) as Record<string, Json>)) {
          if (header['schema']) found.push({ where: `${at} ${status} header ${name}`, schema: header['schema'] as Json });
        }
      }
    }
    return found;
  }

  /**
   * Every example the document gives: `examples` of any schema (properties and items included, each
   * against its own subschema), and `example` of parameters and media types.
   */
  allExamples(): LocatedExample[] {
    const found: LocatedExample[] = [];
    const visit = (schema: unknown, where: string): void => {
      if (!schema || typeof schema !== 'object') return;
      const s = schema as Json;
      if (Array.isArray(s['examples'])) s['examples'].forEach((example, i) => found.push({ where: `${where} examples[${i}]`, schema: s, example }));
      for (const [name, sub] of Object.entries((s['properties'] ?? {}) as Json)) visit(sub, `${where}.${name}`);
      for (const key of ['items', 'additionalProperties', 'not', 'propertyNames']) visit(s[key], `${where}/${key}`);
      for (const key of ['allOf', 'anyOf', 'oneOf']) ((s[key] ?? []) as unknown[]).forEach((sub, i) => visit(sub, `${where}/${key}[${i}]`));
    };
    for (const { where, schema } of this.allSchemas()) visit(schema, where);
    for (const { path, method, operation } of this.operations()) {
      const at = `${method.toUpperCase()} ${path}`;
      const holders: Array<[string, Json]> = ((operation['parameters'] ?? []) as Json[]).map((p) => [`${at} parameter ${String(p['name'])}`, p]);
      for (const [type, media] of Object.entries(((operation['requestBody'] as Json | undefined)?.['content'] ?? {}) as Record<string, Json>)) holders.push([`${at} request ${type}`, media]);
      for (const [status, response] of Object.entries((operation['responses'] ?? {}) as Record<string, Json>)) {
        for (const [type, media] of Object.entries((response['content'] ?? {}) as Record<string, Json>)) holders.push([`${at} ${status} ${type}`, media]);
      }
      for (const [where, holder] of holders) {
        if ('example' in holder && holder['schema']) found.push({ where: `${where} example`, schema: holder['schema'] as Json, example: holder['example'] });
        for (const [name, example] of Object.entries((holder['examples'] ?? {}) as Record<string, Json>)) {
          if (holder['schema'] && 'value' in example) found.push({ where: `${where} examples.${name}`, schema: holder['schema'] as Json, example: example['value'] });
        }
      }
    }
    return found;
  }
}
