import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31';

function convert(schemas: Record<string, unknown>, paths: Record<string, unknown> = {}): OpenAPIObject {
  return toOpenApi31({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths, components: { schemas } } as unknown as OpenAPIObject);
}

describe('toOpenApi31', () => {
  it('turns nullable into a null type, also in an enum, and drops nullable: false', () => {
    const document = convert({
      A: {
        type: 'object',
        properties: {
          note: { type: 'string', nullable: true, maxLength: 5 },
          kind: { type: 'string', enum: ['a', 'b'], nullable: true },
          done: { type: 'boolean', nullable: false },
        },
      },
    });
    expect(document.openapi).toBe('3.1.0');
    expect(document.components!.schemas!['A']).toEqual({
      type: 'object',
      properties: {
        note: { type: ['string', 'null'], maxLength: 5 },
        kind: { type: ['string', 'null'], enum: ['a', 'b', null] },
        done: { type: 'boolean' },
      },
    });
  });

  it('unwraps a lone allOf around a $ref (3.0 ignored siblings of $ref) and makes a nullable $ref an anyOf with null', () => {
    const document = convert({
      A: {
        type: 'object',
        properties: {
          status: { allOf: [{ $ref: '#/components/schemas/S' }], default: 'draft', description: 'd' },
          parent: { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/A' }] },
          both: { allOf: [{ $ref: '#/components/schemas/S' }, { description: 'x' }] },
        },
      },
    });
    const properties = (document.components!.schemas!['A'] as { properties: Record<string, unknown> }).properties;
    expect(properties['status']).toEqual({ $ref: '#/components/schemas/S', default: 'draft', description: 'd' });
    expect(properties['parent']).toEqual({ anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }] });
    expect(properties['both']).toEqual({ allOf: [{ $ref: '#/components/schemas/S' }, { description: 'x' }] });
  });

  it('moves example to examples inside schemas only, and leaves properties named like keywords alone', () => {
    const document = convert(
      { A: { type: 'object', properties: { example: { type: 'string', example: 'x' }, nullable: { type: 'boolean' } } } },
      {
        '/a': {
          get: {
            parameters: [{ name: 'q', in: 'query', example: 'p', schema: { type: 'integer', example: 3, nullable: true } }],
            responses: { '200': { description: 'ok', content: { 'application/json': { example: { a: 1 }, schema: { type: 'array', items: { type: 'string', nullable: true } } } } } },
          },
        },
      },
    );
    expect(document.components!.schemas!['A']).toEqual({ type: 'object', properties: { example: { type: 'string', examples: ['x'] }, nullable: { type: 'boolean' } } });
    const get = (document.paths['/a'] as { get: { parameters: unknown[]; responses: Record<string, { content: Record<string, unknown> }> } }).get;
    expect(get.parameters[0]).toEqual({ name: 'q', in: 'query', example: 'p', schema: { type: ['integer', 'null'], examples: [3] } });
    expect(get.responses['200']!.content['application/json']).toEqual({ example: { a: 1 }, schema: { type: 'array', items: { type: ['string', 'null'] } } });
  });

  it('refuses a nullable schema it cannot express', () => {
    expect(() => convert({ A: { nullable: true, description: 'anything' } })).toThrow(/cannot be converted/);
  });
});
