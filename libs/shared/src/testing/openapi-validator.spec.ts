import { OpenApiValidator } from './openapi-validator';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

const document = {
  openapi: '3.0.0',
  paths: {
    '/api/v1/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['data'], properties: { data: { $ref: '#/components/schemas/Thing' } } },
              },
            },
          },
          '404': { description: 'missing', content: problem },
          '413': { description: 'too large', content: problem, headers: {} },
          '418': { description: 'open to all', content: problem, headers: { 'Access-Control-Allow-Origin': { required: true, schema: { type: 'string' } } } },
          '429': { description: 'slow down', content: problem, headers: { 'Retry-After': { schema: { type: 'integer' } }, 'RateLimit-Limit': { schema: { type: 'integer' } } } },
        },
      },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/api/v1/things/special': {
      get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { special: { type: 'boolean' } } } } } } } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'name', 'note'],
        properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, note: { type: 'string', nullable: true } },
      },
      Problem: {
        type: 'object',
        required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
        properties: {
          type: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'number' },
          detail: { type: 'string' },
          code: { type: 'string' },
          request_id: { type: 'string' },
        },
      },
    },
  },
};

const json = { 'content-type': 'application/json; charset=utf-8' };
const problemJson = { 'content-type': 'application/problem+json' };
const thing = { id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a', name: 'A', note: null };
const aProblem = { type: 't', title: 'Not Found', status: 404, detail: 'd', code: 'not_found', request_id: 'r' };

describe('OpenApiValidator', () => {
  const validator = new OpenApiValidator(document);

  it('accepts a response that matches the document', () => {
    expect(validator.check('GET', '/api/v1/things/1?x=1', { status: 200, body: { data: thing }, headers: json })).toEqual([]);
    expect(validator.check('get', '/api/v1/things/1', { status: 404, body: aProblem, headers: problemJson })).toEqual([]);
    expect(validator.check('delete', '/api/v1/things/1', { status: 204, body: {}, headers: {} })).toEqual([]);
  });

  it('reports a field the document does not name, also inside a referenced schema', () => {
    const problems = validator.check('get', '/api/v1/things/1', { status: 200, body: { data: { ...thing, secret: 'x' } }, headers: json });
    expect(problems).toEqual([expect.stringContaining('GET /api/v1/things/{id} 200: body/data must NOT have additional properties')]);
    expect(problems[0]).toContain('secret');
    expect(validator.check('get', '/api/v1/things/1', { status: 200, body: { data: thing, meta: {} }, headers: json })).toHaveLength(1);
  });

  it('reports a status the operation does not document', () => {
    expect(validator.check('get', '/api/v1/things/1', { status: 409, body: { ...aProblem, status: 409 }, headers: problemJson })).toEqual([
      'GET /api/v1/things/{id} 409: status not documented',
    ]);
  });

  it('reports a missing required field, a wrong type, and null where it is not allowed', () => {
    expect(validator.check('get', '/api/v1/things/1', { status: 200, body: { data: { id: thing.id, name: 'A' } }, headers: json })[0]).toContain("must have required property 'note'");
    expect(validator.check('get', '/api/v1/things/1', { status: 200, body: { data: { ...thing, name: 5 } }, headers: json })[0]).toContain('must be string');
    expect(validator.check('get', '/api/v1/things/1', { status: 200, body: { data: { ...thing, name: null } }, headers: json })).toHaveLength(1);
    expect(validator.check('get', '/api/v1/things/1', { status: 200, body: { data: { ...thing, id: 'nope' } }, headers: json })[0]).toContain('format');
  });

  it('reports an undocumented content type, a body where none is documented, and an unknown operation', () => {
    expect(validator.check('get', '/api/v1/things/1', { status: 404, body: aProblem, headers: json })[0]).toContain('content type application/json not documented');
    expect(validator.check('delete', '/api/v1/things/1', { status: 204, body: { data: 1 }, headers: json })).toEqual(['DELETE /api/v1/things/{id} 204: body not documented']);
    expect(validator.check('patch', '/api/v1/things/1', { status: 200, body: {}, headers: json })).toEqual(['PATCH /api/v1/things/1: operation missing from the OpenAPI document']);
  });

  it('reports a tracked header (RateLimit-*, Retry-After, Location…) on an answer that does not document it', () => {
    const limited = { ...problemJson, 'ratelimit-limit': '600', 'retry-after': '3' };
    expect(validator.check('get', '/api/v1/things/1', { status: 429, body: { ...aProblem, status: 429 }, headers: limited })).toEqual([]);
    expect(validator.check('get', '/api/v1/things/1', { status: 413, body: { ...aProblem, status: 413 }, headers: limited })).toEqual([
      'GET /api/v1/things/{id} 413: sends ratelimit-limit, retry-after, which the document does not list for this answer',
    ]);
    expect(validator.check('get', '/api/v1/things/1', { status: 200, body: { data: thing }, headers: { ...json, location: '/x' } })[0]).toContain('sends location');
    // Headers the document does not track are not looked at.
    expect(validator.check('get', '/api/v1/things/1', { status: 200, body: { data: thing }, headers: { ...json, 'x-request-id': 'r' } })).toEqual([]);
  });

  it('reports a header the document marks required on an answer that lacks it', () => {
    const teapot = { status: 418, body: { ...aProblem, status: 418 } };
    expect(validator.check('get', '/api/v1/things/1', { ...teapot, headers: { ...problemJson, 'access-control-allow-origin': '*' } })).toEqual([]);
    expect(validator.check('get', '/api/v1/things/1', { ...teapot, headers: problemJson })).toEqual([
      'GET /api/v1/things/{id} 418: lacks Access-Control-Allow-Origin, which the document says this answer always carries',
    ]);
  });

  it('prefers literal path segments over parameters', () => {
    expect(validator.check('get', '/api/v1/things/special', { status: 200, body: { special: true }, headers: json })).toEqual([]);
    expect(validator.check('get', '/api/v1/things/special', { status: 200, body: { data: thing }, headers: json })).toHaveLength(1);
  });

  it('accepts a problem body for an unknown route only when it is one', () => {
    expect(validator.check('get', '/nowhere', { status: 404, body: aProblem, headers: problemJson })).toEqual([]);
    expect(validator.check('get', '/nowhere', { status: 404, body: { message: 'Not Found' }, headers: problemJson }).length).toBeGreaterThan(0);
    expect(validator.check('get', '/nowhere', { status: 404, body: aProblem, headers: json })).toEqual(['get /nowhere 404: not a problem body']);
  });
});
