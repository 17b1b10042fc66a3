import { INestApplication, ParseUUIDPipe, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { bodyRulesOf, deriveClassRules, DerivedProperty, documentedModels, SchemaFragment } from './openapi-constraints';

type Json = Record<string, unknown>;

/** The operationId of a controller method: `Schedules_create` for SchedulesController.create. */
export function operationIdOf(controllerName: string, methodName: string): string {
  return `${controllerName.replace(/Controller$/, '')}_${methodName}`;
}

interface RouteInputs {
  operationId: string;
  body?: Type<unknown>;
  query?: Type<unknown>;
  uuidParams: string[];
}

const PRIMITIVES: readonly unknown[] = [String, Number, Boolean, Object, Array, undefined];

/** What every controller method takes, from Nest's own route metadata (the same the framework runs). */
function routeInputs(app: INestApplication): RouteInputs[] {
  const routes: RouteInputs[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller?.prototype) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const methodName of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[methodName];
        if (methodName === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {}) as Record<string, { index: number; data?: unknown; pipes?: unknown[] }>;
        const types = (Reflect.getMetadata('design:paramtypes', prototype, methodName) ?? []) as Type<unknown>[];
        const route: RouteInputs = { operationId: operationIdOf(controller.name, methodName), uuidParams: [] };
        for (const [key, arg] of Object.entries(args)) {
          const kind = Number(key.split(':')[0]);
          const type = types[arg.index];
          if (kind === RouteParamtypes.BODY && arg.data === undefined && !PRIMITIVES.includes(type)) route.body = type;
          if (kind === RouteParamtypes.QUERY && arg.data === undefined && !PRIMITIVES.includes(type)) route.query = type;
          if (kind === RouteParamtypes.PARAM && typeof arg.data === 'string' && (arg.pipes ?? []).some((pipe) => pipe instanceof ParseUUIDPipe || pipe === ParseUUIDPipe)) {
            route.uuidParams.push(arg.data);
          }
        }
        routes.push(route);
      }
    }
  }
  return routes;
}

const REF_PREFIX = '#/components/schemas/';

function refName(schema: Json): string | undefined {
  const ref = schema['$ref'] ?? (Array.isArray(schema['allOf']) && schema['allOf'].length === 1 ? (schema['allOf'][0] as Json)['$ref'] : undefined);
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}

/** Every component named by a `$ref` anywhere inside `node`. */
function referencedNames(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => referencedNames(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) found.add(value.slice(REF_PREFIX.length));
      else referencedNames(value, found);
    }
  }
  return found;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Puts the derived keywords on one documented value (a property, array items, or a parameter's schema). */
function applyKeywords(target: Json, keywords: SchemaFragment, schemas: Record<string, Json>): void {
  const referenced = refName(target);
  const resolved = referenced ? schemas[referenced] : undefined;
  for (const [key, value] of Object.entries(keywords)) {
    // An enum component (`$ref`) already says what its values are and what type they have.
    if (resolved && same(resolved[key], value)) continue;
    // A pattern written by hand next to the validator's states a further rule (a domain check): keep both.
    if (key === 'pattern' && typeof target['pattern'] === 'string' && target['pattern'] !== value) {
      target['allOf'] = [...((target['allOf'] as unknown[] | undefined) ?? []), { pattern: target['pattern'] }];
    }
    if (value === undefined) {
      delete target[key];
      continue;
    }
    if (key === 'allOf') {
      target['allOf'] = [...((target['allOf'] as unknown[] | undefined) ?? []), ...(value as unknown[])];
      continue;
    }
    target[key] = value;
  }
}

function applyProperty(property: Json, rule: DerivedProperty, schemas: Record<string, Json>): void {
  applyKeywords(property, rule.schema, schemas);
  if (Object.keys(rule.items).length > 0) {
    const items = ((property['items'] as Json | undefined) ??= {});
    applyKeywords(items, rule.items, schemas);
  }
  if (rule.nullable) property['nullable'] = true;
  else delete property['nullable'];
}

/** The request body components: each operation's (with its methods) and every object they nest. */
export interface RequestComponents {
  bodies: Map<string, Set<string>>;
  all: Set<string>;
}

/**
 * States every request rule the validators enforce: body schemas (and the objects nested in them)
 * get their constraints, `required`, `null` where `@IsOptional()` lets it through and
 * `additionalProperties: false` (the validation pipe refuses unknown fields); query parameters get
 * their constraints; path parameters read through ParseUUIDPipe get `format: uuid`. Throws when the
 * document and the validators disagree on which fields exist. 
 */
export function documentRequestRules(app: INestApplication, document: OpenAPIObject): RequestComponents {
  const schemas = ((document.components ??= {}).schemas ??= {}) as Record<string, Json>;
  const operations = new Map<string, { method: string; operation: Json }>();
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      if (typeof operation === 'object' && operation && typeof operation['operationId'] === 'string') operations.set(operation['operationId'], { method, operation });
    }
  }
  const bodies = new Map<string, Set<string>>();
  const classOf = new Map<string, Type<unknown>>();

  for (const route of routeInputs(app)) {
    const found = operations.get(route.operationId);
    if (!found) continue;
    const { method, operation } = found;
    if (route.body) {
      const content = ((operation['requestBody'] as Json | undefined)?.['content'] as Record<string, Json> | undefined)?.['application/json'];
      const name = content ? refName((content['schema'] ?? {}) as Json) : undefined;
      if (name !== route.body.name) throw new Error(`${route.operationId}: the request body is not documented as #/components/schemas/${route.body.name}`);
      classOf.set(name, route.body);
      bodies.set(name, (bodies.get(name) ?? new Set<string>()).add(method));
    }
    if (route.query) documentQuery(route.operationId, operation, route.query, schemas);
    for (const parameter of (operation['parameters'] ?? []) as Json[]) {
      if (parameter['in'] === 'path' && route.uuidParams.includes(parameter['name'] as string)) {
        parameter['schema'] = { ...((parameter['schema'] as Json | undefined) ?? {}), type: 'string', format: 'uuid' };
      }
    }
  }

  // Body components, then every component they reach (attendee, content blocks…), each once.
  const pending = [...bodies.keys()];
  const all = new Set<string>();
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (all.has(name)) continue;
    const schema = schemas[name];
    const target = classOf.get(name);
    if (!schema) continue;
    if (!target) {
      if (schema['properties']) throw new Error(`${name} is part of a request body, but no documented model of that name is known`);
      continue; // an enum component
    }
    all.add(name);
    documentBodyClass(name, schema, target, schemas);
    for (const model of documentedModels(target)) if (!classOf.has(model.name)) classOf.set(model.name, model);
    pending.push(...referencedNames(schema['properties']));
  }
  return { bodies, all };
}

function documentBodyClass(name: string, schema: Json, target: Type<unknown>, schemas: Record<string, Json>): void {
  const rules = deriveClassRules(target);
  const properties = ((schema['properties'] as Record<string, Json> | undefined) ??= {});
  for (const property of Object.keys(properties)) {
    if (!rules.has(property)) throw new Error(`${name}.${property} is documented, but the server refuses it (no validator whitelists it)`);
  }
  for (const [property, rule] of rules) {
    const documented = properties[property];
    if (!documented) throw new Error(`${name}.${property} is accepted by the server but not documented`);
    applyProperty(documented, rule, schemas);
  }
  const required = [...rules].filter(([, rule]) => rule.required).map(([property]) => property);
  if (required.length > 0) schema['required'] = required;
  else delete schema['required'];
  schema['type'] = 'object';
  schema['additionalProperties'] = false;
  Object.assign(schema, bodyRulesOf(target));
}

function documentQuery(operationId: string, operation: Json, target: Type<unknown>, schemas: Record<string, Json>): void {
  const rules = deriveClassRules(target);
  const parameters = ((operation['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'query');
  for (const parameter of parameters) {
    const name = parameter['name'] as string;
    const rule = rules.get(name);
    if (!rule) throw new Error(`${operationId}: query parameter ${name} is documented but not read`);
    const schema = ((parameter['schema'] as Json | undefined) ??= {});
    applyKeywords(schema, rule.schema, schemas);
    if (Object.keys(rule.items).length > 0) applyKeywords(((schema['items'] as Json | undefined) ??= {}), rule.items, schemas);
    delete schema['nullable'];
    // A boolean validator on a query string only passes after QueryBoolean, which also reads 1 and 0.
    if (rule.schema['type'] === 'boolean') {
      const description = typeof parameter['description'] === 'string' ? `${parameter['description']} ` : '';
      parameter['description'] = `${description}(\`true\` or \`false\`; \`1\` and \`0\` are read as those)`;
    }
    parameter['required'] = rule.required;
  }
  for (const name of rules.keys()) {
    if (!parameters.some((p) => p['name'] === name)) throw new Error(`${operationId}: query parameter ${name} is read but not documented`);
  }
}
