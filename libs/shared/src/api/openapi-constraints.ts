import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/*
 * The rules the server enforces on a request body or a query are its class-validator decorators.
 * This file turns them into the JSON Schema keywords of the OpenAPI document, so the document states
 * exactly those rules and cannot drift from them: `@ApiProperty` keeps the words (description,
 * example), the validators give the constraints (type, lengths, bounds, patterns, formats, enums,
 * `required`, `null`).
 *
 * class-validator's own decorators are mapped below. A custom validator says what it enforces when it
 * is declared (`simpleValidator(name, test, message, schema)` or `documentValidator`); a custom
 * validator that says nothing stops the document from being built, so no rule goes unstated by
 * accident. A rule JSON Schema cannot say (an IANA zone the runtime knows, "after start_time", at most
 * two decimals) is documented as `{}` plus words in the field's description.
 */

export type SchemaFragment = Record<string, unknown>;

const VALIDATOR_SCHEMAS = 'almanac:validator-schemas';

/**
 * The keywords a validator enforces, or a function giving them when the document is built (for a rule
 * whose values are complete only once every context has loaded, such as the list of event types).
 */
export type ValidatorSchema = SchemaFragment | (() => SchemaFragment);

/** Records the JSON Schema keywords a custom validator on `target[propertyName]` enforces. */
export function documentValidator(target: object, propertyName: string | symbol, validatorName: string, schema: ValidatorSchema): void {
  const owner = target.constructor;
  const own = (Reflect.getOwnMetadata(VALIDATOR_SCHEMAS, owner, propertyName) as Record<string, ValidatorSchema> | undefined) ?? {};
  Reflect.defineMetadata(VALIDATOR_SCHEMAS, { ...own, [validatorName]: schema }, owner, propertyName);
}

const BODY_RULES = 'almanac:body-rules';

/**
 * Rules of a whole body that JSON Schema can state but no property validator carries (fields that go
 * together, a field a value of another needs): written into the body's schema as given.
 */
export function ApiBodyRules(rules: SchemaFragment): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(BODY_RULES, { ...bodyRulesOf(target), ...rules }, target);
  };
}

export function bodyRulesOf(target: object): SchemaFragment {
  return (Reflect.getMetadata(BODY_RULES, target) as SchemaFragment | undefined) ?? {};
}

function documentedSchemas(target: Type<unknown>, propertyName: string): Record<string, ValidatorSchema> {
  return (Reflect.getMetadata(VALIDATOR_SCHEMAS, target, propertyName) as Record<string, ValidatorSchema> | undefined) ?? {};
}

/** class-validator's decorators, as JSON Schema. */
function builtInSchema(meta: ValidationMetadata): SchemaFragment | undefined {
  const [first] = (meta.constraints ?? []) as unknown[];
  switch (meta.name) {
    case 'isString':
      return { type: 'string' };
    case 'isInt':
      return { type: 'integer' };
    case 'isBoolean':
      return { type: 'boolean' };
    case 'isNumber':
      return { type: 'number' };
    case 'isArray':
      return { type: 'array' };
    case 'isObject':
      return { type: 'object' };
    case 'min':
      return { minimum: first };
    case 'max':
      return { maximum: first };
    case 'minLength':
      return { minLength: first };
    case 'maxLength':
      return { maxLength: first };
    case 'isNotEmpty':
      return { minLength: 1 };
    case 'isIn':
      return { enum: [...(first as unknown[])] };
    case 'isUuid':
      return { format: 'uuid' };
    case 'isEmail':
      return { format: 'email' };
    case 'arrayMinSize':
      return { minItems: first };
    case 'arrayMaxSize':
      return { maxItems: first };
    case 'arrayUnique':
      return { uniqueItems: true };
    case 'matches': {
      const pattern = first as RegExp;
      if (pattern.flags.replace('u', '') !== '') throw new Error(`@Matches(${String(pattern)}): flags cannot be stated in OpenAPI`);
      return { pattern: pattern.source };
    }
    default:
      return undefined;
  }
}

/** What the validators of one property say. */
export interface DerivedProperty {
  /** JSON Schema keywords for the value (null aside). */
  schema: SchemaFragment;
  /** Keywords for each element of an array value (validators with `each: true`). */
  items: SchemaFragment;
  /** Absent or null skips every other rule (`@IsOptional()`). */
  nullable: boolean;
  /** No conditional validation: the property must be present. */
  required: boolean;
}

/** Merges keyword sets; two different patterns are both kept (`allOf`), any other clash is an error. */
function mergeInto(target: SchemaFragment, fragment: SchemaFragment, where: string): void {
  for (const [key, value] of Object.entries(fragment)) {
    if (!(key in target) || JSON.stringify(target[key]) === JSON.stringify(value)) {
      target[key] = value;
    } else if (key === 'pattern') {
      const allOf = ((target['allOf'] as SchemaFragment[] | undefined) ??= []);
      allOf.push({ pattern: value });
    } else if (key === 'maxLength' || key === 'maximum' || key === 'maxItems') {
      target[key] = Math.min(target[key] as number, value as number);
    } else if (key === 'minLength' || key === 'minimum' || key === 'minItems') {
      target[key] = Math.max(target[key] as number, value as number);
    } else {
      throw new Error(`${where}: validators disagree on "${key}" (${JSON.stringify(target[key])} vs ${JSON.stringify(value)})`);
    }
  }
}

/**
 * Every validated property of a DTO class (inherited ones included) and what its validators enforce.
 * Throws on a custom validator that did not document itself.
 */
export function deriveClassRules(target: Type<unknown>): Map<string, DerivedProperty> {
  const metas = getMetadataStorage().getTargetValidationMetadatas(target, '', false, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const meta of metas) {
    const list = byProperty.get(meta.propertyName) ?? [];
    list.push(meta);
    byProperty.set(meta.propertyName, list);
  }
  const result = new Map<string, DerivedProperty>();
  for (const [property, list] of byProperty) {
    const where = `${target.name}.${property}`;
    const documented = documentedSchemas(target, property);
    const derived: DerivedProperty = { schema: {}, items: {}, nullable: false, required: true };
    for (const meta of list) {
      if (meta.type === 'conditionalValidation') {
        derived.required = false;
        if (meta.name === 'isOptional') derived.nullable = true;
        continue;
      }
      if (meta.type === 'nestedValidation' || meta.type === 'isDefined' || meta.type === 'whitelistValidation') continue;
      const stated = meta.name ? documented[meta.name] : undefined;
      const fragment = builtInSchema(meta) ?? (typeof stated === 'function' ? stated() : stated);
      if (!fragment) {
        throw new Error(
          `${where}: the validator "${meta.name ?? meta.type}" does not say what it enforces; declare it with simpleValidator(…, schema) or documentValidator()`,
        );
      }
      mergeInto(meta.each ? derived.items : derived.schema, fragment, where);
    }
    result.set(property, derived);
  }
  return result;
}

const API_MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const API_EXTRA_MODELS = 'swagger/apiExtraModels';

function isClass(value: unknown): boolean {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/**
 * The classes a DTO's documentation names: each property's `type` (a class, `[Class]` or a thunk) and
 * its `@ApiExtraModels`. These are the schemas its own schema `$ref`s, so they resolve those refs by
 * name (@nestjs/swagger names a class's schema after the class).
 */
export function documentedModels(target: Type<unknown>): Type<unknown>[] {
  const found: Type<unknown>[] = [...((Reflect.getMetadata(API_EXTRA_MODELS, target) as Type<unknown>[] | undefined) ?? [])];
  const prototype = target.prototype as object;
  const keys = ((Reflect.getMetadata(API_MODEL_PROPERTIES_ARRAY, prototype) as string[] | undefined) ?? []).map((key) => key.replace(/^:/, ''));
  for (const key of keys) {
    const options = Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, key) as { type?: unknown } | undefined;
    let type = options?.type;
    if (Array.isArray(type)) type = type[0];
    const thunk = typeof type === 'function' && !isClass(type) && (type as Type<unknown>).length === 0;
    if (thunk && ![String, Number, Boolean, Object, Array, Date].includes(type as never)) {
      try {
        type = (type as () => unknown)();
      } catch {
        type = undefined;
      }
      if (Array.isArray(type)) type = type[0];
    }
    if (isClass(type)) found.push(type as Type<unknown>);
  }
  return found;
}
