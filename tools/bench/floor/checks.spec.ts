import { ValidationFailedError } from '@almanac/shared';
import { DocumentChecks } from './checks';

/** A small document in the shape the app serves: what the floor's checks read from it. */
const document = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      patch: {
        'x-required-scope': 'things:write',
        parameters: [
          { in: 'path', name: 'id', required: true, schema: { type: 'string', format: 'uuid' } },
          { in: 'query', name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { in: 'query', name: 'upcoming', schema: { type: 'boolean' } },
        ],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        responses: { '200': { description: 'ok', headers: { ETag: { schema: { type: 'string' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1 },
          parts: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { level: { type: 'integer' } } } },
          note: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] },
        },
      },
    },
  },
};

function errorsOf(fn: () => unknown): Array<{ field: string; message: string }> {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationFailedError) return [...(error.errors ?? [])];
    throw error;
  }
  throw new Error('no error');
}

describe('the floor checks requests against the OpenAPI document', () => {
  const checks = new DocumentChecks(document).forOperation('PATCH', '/things/{id}');

  it('reads the scope, the success status and whether answers are tagged', () => {
    expect(checks.scope).toBe('things:write');
    expect(checks.status).toBe(200);
    expect(checks.conditional).toBe(true);
  });

  it('answers a malformed path id as the resource not found', () => {
    expect(() => checks.params({ id: 'nope' }, { id: 'Thing' })).toThrow('Thing not found.');
    expect(checks.params({ id: '0190a0d1-2a9b-7c3d-8e4f-123456789abc' }, { id: 'Thing' })).toEqual({ id: '0190a0d1-2a9b-7c3d-8e4f-123456789abc' });
  });

  it('converts documented query parameters as the API does and drops the others', () => {
    expect(checks.query({ limit: '20', upcoming: '1', colour: 'red' })).toEqual({ limit: 20, upcoming: true });
    expect(errorsOf(() => checks.query({ limit: '0', upcoming: 'maybe' })).map((e) => e.field).sort()).toEqual(['limit', 'upcoming']);
  });

  it('names the fields of a refused body as the API does: nested with dots, items with brackets', () => {
    const errors = errorsOf(() => checks.body({ colour: 'red', parts: [{ level: 1 }, { level: 'x' }], note: 'long' }));
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: "must have required property 'name'" },
        { field: 'colour', message: 'property colour should not exist' },
        { field: 'parts[1].level', message: 'must be integer' },
      ]),
    );
    // anyOf's own summary is left out when its branches said what is wrong.
    expect(errors.filter((e) => e.field === 'note').map((e) => e.message)).not.toContain('must match a schema in anyOf');
    expect(errorsOf(() => checks.body([1, 2]))).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    expect(() => checks.body({ name: 'ok', note: null })).not.toThrow();
  });
});
