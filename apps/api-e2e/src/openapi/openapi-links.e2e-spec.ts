import { DocumentedOperation, OpenApiSchemas } from '@almanac/shared/testing';
import { createTestApp, TestApp } from '../support/test-app';
import { call, createRecords, fillPath, pathValues, Records, validBody } from './records';

type Json = Record<string, unknown>;

/** A runtime expression of an OpenAPI link (the two forms the document uses), against a real exchange. */
function evaluate(expression: string, requestPath: Record<string, string>, responseBody: unknown): string {
  const fromPath = /^\$request\.path\.(.+)$/.exec(expression);
  if (fromPath) return requestPath[fromPath[1]!]!;
  const fromBody = /^\$response\.body#(\/.*)$/.exec(expression);
  if (!fromBody) throw new Error(`unsupported runtime expression ${expression}`);
  let node = responseBody;
  for (const token of fromBody[1]!.split('/').slice(1)) node = (node as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (typeof node !== 'string') throw new Error(`${expression} names no string in ${JSON.stringify(responseBody)}`);
  return node;
}

const ORDER = ['get', 'patch', 'delete'];

describe('OpenAPI links from every 201 lead to the record just created (e2e)', () => {
  let t: TestApp;
  let schemas: OpenApiSchemas;
  let r: Records;

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookAllowPrivateHosts: true, webhookDispatcher: false } });
    schemas = new OpenApiSchemas(t.document);
    r = await createRecords(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('follows each link of each create: the GET, PATCH and DELETE of the new record answer 2xx, and Location is the GET', async () => {
    // A preview link is an address and a manage token a secret, not records of the API (their own suites follow them).
    const creates = schemas.operations().filter(
      (o) => (o.operation['responses'] as Json)['201'] && !['PostPreviewLinks_create', 'Bookings_replaceManageToken'].includes(o.operation['operationId'] as string),
    );
    expect(creates.length).toBe(13);
    const followed: string[] = [];
    for (const create of creates) {
      const createId = create.operation['operationId'] as string;
      const requestPath = pathValues(create.path, r);
      const request = call(t, create, fillPath(create.path, requestPath), r);
      const created = await (schemas.requestBodySchema(create) ? request.send(validBody(createId, r)) : request).expect(201);
      const links = ((((create.operation['responses'] as Json)['201'] as Json)['links'] ?? {}) as Record<string, { operationId: string; parameters: Record<string, string> }>);
      const targets: Array<{ operation: DocumentedOperation; path: string }> = Object.values(links).map((link) => {
        const operation = schemas.operationById(link.operationId);
        const values = Object.fromEntries(Object.entries(link.parameters).map(([name, expression]) => [name, evaluate(expression, requestPath, created.body)]));
        const missing = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).filter((name) => values[name] === undefined);
        expect([link.operationId, missing]).toEqual([link.operationId, []]);
        return { operation, path: fillPath(operation.path, values) };
      });
      targets.sort((a, b) => ORDER.indexOf(a.operation.method) - ORDER.indexOf(b.operation.method));
      expect([createId, targets.map((target) => target.operation.method)]).toEqual([createId, expect.arrayContaining(['get', 'delete'])]);
      const read = targets.find((target) => target.operation.method === 'get')!;
      expect([createId, created.headers['location']]).toEqual([createId, read.path]);
      for (const target of targets) {
        const linked = call(t, target.operation, target.path, r);
        const body = schemas.requestBodySchema(target.operation) ? validBody(target.operation.operation['operationId'] as string, r) : undefined;
        const response = await (body ? linked.send(body) : linked);
        expect([createId, target.operation.method, target.path, response.status]).toEqual([createId, target.operation.method, target.path, 200]);
        // The linked operation answered about the record just created.
        const newId = (created.body as { data: { id?: string } }).data.id;
        const answered = (response.body as { data: { id?: string; schedule_id?: string } }).data;
        if (newId !== undefined) expect([createId, target.operation.method, answered.id]).toEqual([createId, target.operation.method, newId]);
        else expect([createId, target.operation.method, answered.schedule_id ?? 'n/a']).toEqual([createId, target.operation.method, target.operation.method === 'delete' ? requestPath['id'] : 'n/a']);
        followed.push(`${createId} → ${target.operation.operation['operationId'] as string}`);
      }
    }
    expect(followed.length).toBeGreaterThanOrEqual(28);
  });
});
