import { OpenApiSchemas } from '@almanac/shared/testing';
import { createTestApp, TestApp } from '../support/test-app';

type Json = Record<string, unknown>;

/**
 * The document as a whole: valid JSON Schema under Ajv's strict mode, examples that satisfy their own
 * schemas, and the rules every request shares stated everywhere. What the server does with the same
 * inputs is openapi-both-ways.e2e-spec.ts.
 */
describe('OpenAPI document (e2e)', () => {
  let t: TestApp;
  let schemas: OpenApiSchemas;
  let components: Record<string, Json>;

  beforeAll(async () => {
    t = await createTestApp();
    schemas = new OpenApiSchemas(t.document);
    components = ((t.document['components'] as Json)['schemas'] ?? {}) as Record<string, Json>;
  });
  afterAll(async () => {
    await t.close();
  });

  const resolve = (schema: Json): Json => {
    const ref = schema['$ref'];
    return typeof ref === 'string' ? components[ref.slice('#/components/schemas/'.length)]! : schema;
  };

  /** Every object schema a request body reaches: the body's own and those nested in it (attendee, content blocks). */
  function requestObjects(): Array<{ name: string; schema: Json; method: string }> {
    const found = new Map<string, { name: string; schema: Json; method: string }>();
    const visit = (node: unknown, method: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((item) => visit(item, method));
      const ref = (node as Json)['$ref'];
      if (typeof ref === 'string') {
        const name = ref.slice('#/components/schemas/'.length);
        const schema = components[name]!;
        if (schema['type'] === 'object' || schema['properties']) {
          if (found.has(`${method} ${name}`)) return;
          found.set(`${method} ${name}`, { name, schema, method });
        }
        return visit(schema, method);
      }
      Object.values(node as Json).forEach((value) => visit(value, method));
    };
    for (const operation of schemas.operations()) {
      const body = schemas.requestBodySchema(operation);
      if (body) visit(body, operation.method);
    }
    return [...found.values()];
  }

  it('is OpenAPI 3.1, and every schema in it compiles under Ajv strict mode (JSON Schema 2020-12, ajv-formats)', () => {
    expect(t.document['openapi']).toBe('3.1.0');
    const all = schemas.allSchemas();
    expect(all.length).toBeGreaterThan(300);
    const failures: string[] = [];
    for (const { where, schema } of all) {
      try {
        schemas.validate(schema, null);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('strict mode is strict: a 3.0 `nullable`, an unknown keyword or a length on a number does not compile', () => {
    for (const bad of [{ type: 'string', nullable: true }, { type: 'string', example: 'x' }, { type: 'integer', maxLength: 3 }]) {
      expect(() => schemas.validate(bad, 1)).toThrow(/strict mode/);
    }
  });

  it('gives only examples that are valid against their own schema', () => {
    const examples = schemas.allExamples();
    expect(examples.length).toBeGreaterThan(200);
    const invalid = examples.flatMap(({ where, schema, example }) => schemas.validate(schema, example).map((error) => `${where} ${JSON.stringify(example)}: ${error}`));
    expect(invalid).toEqual([]);
    // The example the old `multipleOf: 0.01` refused is there, and valid.
    const cost = (components['CreateEventDto']!['properties'] as Record<string, Json>)['cost']!;
    expect(cost['examples']).toEqual([19.99]);
    expect(cost).not.toHaveProperty('multipleOf');
    expect(schemas.validate(cost, 19.99)).toEqual([]);
  });

  it('closes every request body and every object in one (additionalProperties: false), and gives request properties no default', () => {
    const objects = requestObjects();
    expect(objects.map((o) => o.name)).toEqual(expect.arrayContaining(['CreateBookingDto', 'AttendeeInput', 'UpdateAttendeeInput', 'HeadingContentBlock', 'LoginDto', 'SyncExternalBookingsDto']));
    for (const { name, schema } of objects) {
      expect([name, schema['additionalProperties']]).toEqual([name, false]);
      for (const [property, value] of Object.entries((schema['properties'] ?? {}) as Record<string, Json>)) {
        expect([name, property, 'default' in value]).toEqual([name, property, false]);
      }
    }
  });

  it('bounds every array a request body holds (the server looks at no more items than that, plus one)', () => {
    const unbounded: string[] = [];
    let arrays = 0;
    const visit = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${where}/${i}`));
      const types = ([] as unknown[]).concat((node as Json)['type'] ?? []);
      if (types.includes('array')) {
        arrays += 1;
        if (typeof (node as Json)['maxItems'] !== 'number') unbounded.push(where);
      }
      for (const [key, value] of Object.entries(node as Json)) if (key !== '$ref') visit(value, `${where}/${key}`);
    };
    for (const { name, schema } of requestObjects()) visit(schema, name);
    expect(arrays).toBeGreaterThan(10);
    expect(unbounded).toEqual([]);
  });

  it('asks every PATCH body for at least one field', () => {
    const patches = schemas.operations().filter((o) => o.method === 'patch');
    expect(patches.length).toBe(9);
    for (const patch of patches) expect([patch.path, resolve(schemas.requestBodySchema(patch)!)['minProperties']]).toEqual([patch.path, 1]);
  });

  it('says integer for every count the server takes, and number only for money', () => {
    const numbers: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object') return;
      const types = ([] as unknown[]).concat((node as Json)['type'] ?? []);
      if (types.includes('number')) numbers.push(where);
      for (const [key, value] of Object.entries(node as Json)) if (key !== '$ref') visit(value, `${where}/${key}`);
    };
    for (const { name, schema } of requestObjects()) visit(schema, name);
    for (const operation of schemas.operations()) {
      for (const parameter of (operation.operation['parameters'] ?? []) as Json[]) visit(parameter['schema'], `${operation.path} ?${String(parameter['name'])}`);
    }
    // Every response too (slot list meta, buffers, event type limits).
    for (const [name, schema] of Object.entries(components)) if (!requestObjects().some((o) => o.name === name)) visit(schema, name);
    // Booking metadata takes any JSON number as a value, cost is dollars and cents.
    expect(numbers.filter((where) => !where.endsWith('/metadata/additionalProperties/oneOf/1')).sort()).toEqual([
      'CreateEventDto/properties/cost',
      'EventResponse/properties/cost',
      'ListedEventResponse/properties/cost',
      'UpdateEventDto/properties/cost',
    ]);
    expect((components['SlotListMeta']!['properties'] as Record<string, Json>)['total']).toMatchObject({ type: 'integer' });
    const limit = schemas.parameterSchema(schemas.operationById('Schedules_list'), 'query', 'limit');
    const offset = schemas.parameterSchema(schemas.operationById('Schedules_list'), 'query', 'offset');
    expect(limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 999_999_999_999_999 });
    expect(offset).toMatchObject({ type: 'integer', minimum: 0, maximum: 999_999_999_999_999 });
    expect((components['CreateEventTypeDto']!['properties'] as Record<string, Json>)['duration']).toMatchObject({ type: 'integer', minimum: 1, maximum: 1440 });
  });

  it('writes digits as [0-9] in every pattern (to some engines \\d is any Unicode digit)', () => {
    const patterns: string[] = [];
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const pattern = (node as Json)['pattern'];
      if (typeof pattern === 'string') patterns.push(pattern);
      Object.values(node as Json).forEach(visit);
    };
    visit(t.document);
    expect(patterns.length).toBeGreaterThan(20);
    expect(patterns.filter((p) => p.includes('\\d'))).toEqual([]);
  });

  it('gives the headers the server reads a pattern without control characters, and the change feed cursor its form', () => {
    const headerSchemas: Array<[string, Json]> = [];
    for (const operation of schemas.operations()) {
      for (const name of ['If-Match', 'If-None-Match', 'If-Modified-Since', 'Idempotency-Key']) {
        try {
          headerSchemas.push([`${operation.path} ${name}`, schemas.parameterSchema(operation, 'header', name)]);
        } catch {
          // not read by this operation
        }
      }
    }
    expect(headerSchemas.length).toBeGreaterThan(40);
    for (const [where, schema] of headerSchemas) {
      expect([where, typeof schema['pattern']]).toEqual([where, 'string']);
      for (const control of ['\t', '\u0000', '\u001f', '\u007f', '\u0085']) expect([where, schemas.validate(schema, `a${control}b`)]).not.toEqual([where, []]);
    }
    const after = schemas.parameterSchema(schemas.operationById('Changes_page'), 'query', 'after');
    expect(schemas.validate(after, '123.45')).toEqual([]);
    expect(schemas.validate(after, 'MTIzLjQ1')).not.toEqual([]);
    const overrideDate = ((((components['CreateScheduleDto']!['properties'] as Record<string, Json>)['date_overrides'] as Json)['items'] as Json)['properties'] as Record<string, Json>)['date']!;
    expect(schemas.validate(overrideDate, '0883-34-37')).not.toEqual([]);
    expect(schemas.validate(overrideDate, '2028-02-29')).toEqual([]);
  });

  it('types every path id as a UUID', () => {
    const ids: string[] = [];
    for (const operation of schemas.operations()) {
      for (const parameter of (operation.operation['parameters'] ?? []) as Json[]) {
        // A calendar feed's file and a preview link's token are secrets in an address, not record ids.
        if (parameter['in'] !== 'path' || parameter['name'] === 'file' || parameter['name'] === 'token') continue;
        ids.push(`${operation.operation['operationId'] as string} ${String(parameter['name'])} ${String((parameter['schema'] as Json)['format'])}`);
      }
    }
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.filter((id) => !id.endsWith(' uuid'))).toEqual([]);
  });

  it('documents RateLimit headers on the /api/v1 answers that carry them, never on 401, 413 or 415', () => {
    let carried = 0;
    for (const { path, operation } of schemas.operations()) {
      for (const [status, response] of Object.entries(operation['responses'] as Record<string, Json>)) {
        const headers = Object.keys((response['headers'] ?? {}) as Json);
        const listed = headers.includes('RateLimit-Remaining');
        if (!path.startsWith('/api/v1/')) expect([path, status, listed]).toEqual([path, status, false]);
        else if (['401', '413', '415'].includes(status)) expect([path, status, listed]).toEqual([path, status, false]);
        else if (status.startsWith('2')) expect([path, status, listed]).toEqual([path, status, true]);
        if (listed) carried += 1;
      }
    }
    expect(carried).toBeGreaterThan(100);
  });

  it('writes response headers out, optional, so that generated clients do not type them as always sent', () => {
    const written: string[] = [];
    for (const { path, operation } of schemas.operations()) {
      for (const [status, response] of Object.entries(operation['responses'] as Record<string, Json>)) {
        for (const [name, header] of Object.entries((response['headers'] ?? {}) as Record<string, Json>)) {
          expect([path, status, name, '$ref' in header]).toEqual([path, status, name, false]);
          // Sent only with rate limiting on, or only on a replay.
          if (name.startsWith('RateLimit-') || name === 'Idempotent-Replayed') expect([path, status, name, header['required'] ?? false]).toEqual([path, status, name, false]);
          written.push(name);
        }
      }
    }
    expect([...new Set(written)]).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed', 'Location']));
    expect((t.document['components'] as Json)['headers']).toBeUndefined();
  });

  it('documents 413 and 415 on every operation that takes a body, and 400 on every operation', () => {
    for (const { path, method, operation } of schemas.operations()) {
      const statuses = Object.keys(operation['responses'] as Json);
      expect([method, path, statuses.includes('400')]).toEqual([method, path, true]);
      if (['post', 'put', 'patch'].includes(method)) expect([method, path, statuses.includes('413'), statuses.includes('415')]).toEqual([method, path, true, true]);
    }
  });

  it('describes every tag, names the bearer key without calling it a JWT, and links every 201 to its record', () => {
    const tags = (t.document['tags'] as Json[]).map((tag) => [tag['name'], typeof tag['description'] === 'string' && (tag['description'] as string).length > 20]);
    expect(tags.length).toBe(15);
    expect(tags.filter(([, described]) => !described)).toEqual([]);
    const bearer = ((t.document['components'] as Json)['securitySchemes'] as Record<string, Json>)['bearer']!;
    expect(bearer).toEqual({ type: 'http', scheme: 'bearer', description: expect.stringContaining('alm_') });
    const creates = schemas.operations().filter((o) => (o.operation['responses'] as Json)['201']);
    const NOT_RECORDS = ['PostPreviewLinks_create', 'Bookings_replaceManageToken'];
    expect(creates.length).toBe(15);
    // A preview link is an address and a manage token a secret, not records of the API: no operation takes them back by id.
    for (const create of creates.filter((o) => !NOT_RECORDS.includes(o.operation['operationId'] as string))) {
      const links = Object.keys((((create.operation['responses'] as Json)['201'] as Json)['links'] ?? {}) as Json);
      expect([create.path, links.length > 0]).toEqual([create.path, true]);
    }
  });
});
