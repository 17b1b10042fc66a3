import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

/**
 * Makes the document OpenAPI 3.1 (its schemas are then plain JSON Schema 2020-12).
 *
 * @nestjs/swagger 11 can only relabel a document (`setOpenAPIVersion('3.1.0')`): its schemas stay 3.0
 * (`nullable`, `$ref`s wrapped in a one-element `allOf` so that siblings count, `example`). This step
 * rewrites exactly those: `nullable` becomes a `null` type (or a `{type: null}` alternative beside a
 * `$ref`), a lone `allOf: [{$ref}]` becomes the `$ref` with its siblings, `example` becomes `examples`.
 * It visits schema positions only, so a property that happens to be called `nullable` or `example`
 * is left alone.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  (document as { openapi: string }).openapi = '3.1.0';
  const components = (document.components ?? {}) as Record<string, Record<string, Json> | undefined>;
  for (const schema of Object.values(components['schemas'] ?? {})) convertSchema(schema);
  for (const header of Object.values(components['headers'] ?? {})) convertHolder(header);
  for (const parameter of Object.values(components['parameters'] ?? {})) convertHolder(parameter);
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, Json>)) {
      if (!operation || typeof operation !== 'object') continue;
      for (const parameter of (operation['parameters'] ?? []) as Json[]) convertHolder(parameter);
      convertContent((operation['requestBody'] as Json | undefined)?.['content']);
      for (const response of Object.values((operation['responses'] ?? {}) as Record<string, Json>)) {
        convertContent(response['content']);
        for (const header of Object.values((response['headers'] ?? {}) as Record<string, Json>)) convertHolder(header);
      }
    }
  }
  return document;
}

/** A parameter, a header or a media type: the object that holds a `schema`. */
function convertHolder(holder: Json): void {
  if (holder && typeof holder['schema'] === 'object') convertSchema(holder['schema'] as Json);
  convertContent(holder?.['content']);
}

function convertContent(content: unknown): void {
  for (const media of Object.values((content ?? {}) as Record<string, Json>)) convertHolder(media);
}

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMAS = ['items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalProperties', 'unevaluatedProperties'];

export function convertSchema(schema: Json): void {
  if (!schema || typeof schema !== 'object') return;
  for (const key of SUBSCHEMA_LISTS) for (const sub of (schema[key] ?? []) as Json[]) convertSchema(sub);
  for (const key of SUBSCHEMA_MAPS) for (const sub of Object.values((schema[key] ?? {}) as Record<string, Json>)) convertSchema(sub);
  for (const key of SUBSCHEMAS) if (schema[key] && typeof schema[key] === 'object') convertSchema(schema[key] as Json);

  // A lone allOf around a $ref only existed because 3.0 ignores a $ref's siblings.
  const allOf = schema['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(allOf[0] as Json).length === 1 && (allOf[0] as Json)['$ref']) {
    schema['$ref'] = (allOf[0] as Json)['$ref'];
    delete schema['allOf'];
    // @nestjs/swagger adds `type: object` beside a nullable $ref; the referenced schema says what it is.
    if (schema['type'] === 'object') delete schema['type'];
  }
  if ('example' in schema) {
    schema['examples'] = [schema['example']];
    delete schema['example'];
  }
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (schema[key] === true) schema[key] = schema[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
    if (schema[key] === false) delete schema[key];
  }
  const nullable = schema['nullable'];
  delete schema['nullable'];
  if (nullable !== true) return;
  if (typeof schema['type'] === 'string') {
    schema['type'] = [schema['type'], 'null'];
    if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) schema['enum'] = [...schema['enum'], null];
  } else if (Array.isArray(schema['type'])) {
    if (!schema['type'].includes('null')) schema['type'] = [...schema['type'], 'null'];
  } else if (typeof schema['$ref'] === 'string') {
    schema['anyOf'] = [{ $ref: schema['$ref'] }, { type: 'null' }];
    delete schema['$ref'];
  } else if (Array.isArray(schema['oneOf'])) {
    schema['oneOf'] = [...schema['oneOf'], { type: 'null' }];
  } else {
    throw new Error(`nullable schema without a type cannot be converted: ${JSON.stringify(schema)}`);
  }
}
