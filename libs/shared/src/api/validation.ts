import { ArgumentMetadata, PipeTransform, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { TransformationType, TransformFnParams } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { validate, ValidatorOptions } from 'class-validator';
import { FieldError, ValidationFailedError } from '../domain/domain-error';
import { MAX_REPORTED_ERRORS } from './body-checks';
import { deriveClassRules } from './openapi-constraints';

// class-transformer's decorators (@Type, @Transform) record themselves in this store; the package
// exports it only from its own files (0.5.x has not changed it in years; validation.spec.ts would see it go).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const classTransformerStorage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage }).defaultMetadataStorage;

function joinPath(parent: string, property: string, parentIsArray: boolean): string {
  if (parentIsArray && /^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/**
 * Flattens class-validator's tree into `errors[]` with paths like `attendee.email` or `content[2].level`,
 * at most `limit` of them: the walk stops there, however large the tree.
 */
export function flattenValidationErrors(errors: ValidationError[], limit = MAX_REPORTED_ERRORS): FieldError[] {
  const result: FieldError[] = [];
  const visit = (list: ValidationError[], parent: string, parentIsArray: boolean): void => {
    for (const error of list) {
      if (result.length >= limit) return;
      const path = joinPath(parent, error.property, parentIsArray);
      for (const message of Object.values(error.constraints ?? {})) {
        const prefix = `${error.property} `;
        if (result.length < limit) result.push({ field: path, message: message.startsWith(prefix) ? message.slice(prefix.length) : message });
      }
      if (error.children?.length) visit(error.children, path, Array.isArray(error.value));
    }
  };
  visit(errors, '', false);
  return result;
}

/** What class-validator is asked for every body and query DTO. */
function validatorOptions(forbidUnknown: boolean): ValidatorOptions {
  return {
    whitelist: true,
    forbidNonWhitelisted: forbidUnknown,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
    stopAtFirstError: false,
  };
}

/**
 * Validation the API applies to every body and query: whitelist, no coercion of JSON. Unknown body
 * fields are refused (400); unknown query parameters are ignored (docs/contract/http.md, "Formats").
 *
 * A body or query DTO is built by `toDtoInstance` (linear in what the DTO declares) and then checked
 * by class-validator; anything else (a path parameter, a custom decorator) goes through Nest's
 * ValidationPipe as before.
 */
export function createValidationPipe(): PipeTransform {
  const others = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
  return {
    transform: async (value: unknown, metadata: ArgumentMetadata) => {
      const dto = metadata.metatype;
      if ((metadata.type !== 'body' && metadata.type !== 'query') || !isDtoClass(dto)) return others.transform(value, metadata);
      // A DTO body must be one JSON object: an array, a string or a number gets one error, not one per item.
      if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
        throw new ValidationFailedError([{ field: metadata.type === 'body' ? 'body' : 'query', message: 'must be a JSON object' }]);
      }
      const instance = toDtoInstance(dto as Type<object>, (value ?? {}) as Record<string, unknown>);
      const errors = await validate(instance, validatorOptions(metadata.type === 'body'));
      if (errors.length > 0) throw new ValidationFailedError(flattenValidationErrors(errors));
      return instance;
    },
  };
}

const PRIMITIVES: readonly unknown[] = [String, Boolean, Number, Array, Object];

function isDtoClass(metatype: ArgumentMetadata['metatype']): boolean {
  return typeof metatype === 'function' && !PRIMITIVES.includes(metatype);
}

/** How one validated property of a DTO class is mapped. */
interface PropertyPlan {
  /** The nested DTO class of `@Type(() => X)`. */
  readonly nested?: () => Type<object>;
  /** `@Transform` functions that apply when mapping plain input onto the class. */
  readonly transforms: ReadonlyArray<(params: TransformFnParams) => unknown>;
  /** The most items the property's validators allow in an array (maxItems of its schema; 0 when they want no array). */
  readonly maxItems?: number;
}

const plans = new Map<Type<object>, ReadonlyMap<string, PropertyPlan>>();

/** The plan of every validated property of a DTO class, worked out once per class from its decorators. */
function planOf(dto: Type<object>): ReadonlyMap<string, PropertyPlan> {
  const known = plans.get(dto);
  if (known) return known;
  if (classTransformerStorage.getExposedMetadatas(dto).length > 0 || classTransformerStorage.getExcludedMetadatas(dto).length > 0) {
    throw new Error(`${dto.name}: @Expose/@Exclude are not supported on request DTOs`);
  }
  const plan = new Map<string, PropertyPlan>();
  for (const [property, rules] of deriveClassRules(dto)) {
    const type = classTransformerStorage.findTypeMetadata(dto, property);
    if (type?.options?.discriminator) throw new Error(`${dto.name}.${property}: @Type discriminators are not supported on request DTOs`);
    // An array where the validators want another type is refused as such: one item is enough to show it.
    const declaredType = rules.schema['type'];
    const maxItems = rules.schema['maxItems'] ?? (declaredType !== undefined && declaredType !== 'array' ? 0 : undefined);
    plan.set(property, {
      nested: type ? () => type.typeFunction() as Type<object> : undefined,
      transforms: classTransformerStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).map((meta) => meta.transformFn),
      maxItems: typeof maxItems === 'number' ? maxItems : undefined,
    });
  }
  plans.set(dto, plan);
  return plan;
}

/**
 * A parsed JSON object as an instance of its DTO class, for class-validator to check. It honours the
 * class-transformer decorators the DTOs use (`@Type` of a nested class, for an object or the objects of
 * an array; `@Transform`, which gets the value as sent), and copies every other member as it is, unknown
 * ones included (the validator's whitelist reports those).
 *
 * class-transformer's `plainToInstance` is not used for this: it deep-copies every value of the input
 * (microseconds each, with metadata lookups) and removes duplicate keys of each object with `indexOf`,
 * quadratic in the object's member count, so a body of 1 MiB could hold the event loop for seconds.
 * Here each member of a DTO-typed object costs a map lookup, and values below an untyped member
 * are not visited at all. An array longer than its property allows (or where it allows none) keeps only
 * its first allowed + 1 items: it is refused all the same, and the items past those are not validated.
 */
export function toDtoInstance<T extends object>(dto: Type<T>, plain: Record<string, unknown>): T {
  const plan = planOf(dto);
  const instance = new dto() as Record<string, unknown>;
  for (const key of Object.keys(plain)) {
    let value = plain[key];
    const property = plan.get(key);
    if (property) {
      if (property.maxItems !== undefined && Array.isArray(value) && value.length > property.maxItems + 1) value = value.slice(0, property.maxItems + 1);
      if (property.nested) value = toNested(property.nested(), value);
      for (const transform of property.transforms) {
        value = transform({ value, key, obj: plain, type: TransformationType.PLAIN_TO_CLASS, options: {} });
      }
    }
    instance[key] = value;
  }
  return instance as T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A nested DTO's value: an object becomes an instance, an array's objects do; anything else stays for the validator to refuse. */
function toNested(dto: Type<object>, value: unknown): unknown {
  if (isPlainObject(value)) return toDtoInstance(dto, value);
  if (Array.isArray(value)) return value.map((item) => (isPlainObject(item) ? toDtoInstance(dto, item) : item));
  return value;
}

// The body checks live in body-checks.ts (plain functions, run by the HTTP middleware); re-exported here.
export { findBodyProblems, findNulBytes, RESERVED_BODY_KEYS } from './body-checks';
