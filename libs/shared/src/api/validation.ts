import { ArgumentMetadata, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError, ValidationFailedError } from '../domain/domain-error';

function joinPath(parent: string, property: string, parentIsArray: boolean): string {
  if (parentIsArray && /^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** Flattens class-validator's tree into `errors[]` with paths like `attendee.email` or `content[2].level`. */
export function flattenValidationErrors(errors: ValidationError[], parent = '', parentIsArray = false): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property, parentIsArray);
    for (const message of Object.values(error.constraints ?? {})) {
      const prefix = `${error.property} `;
      result.push({ field: path, message: message.startsWith(prefix) ? message.slice(prefix.length) : message });
    }
    if (error.children?.length) {
      result.push(...flattenValidationErrors(error.children, path, Array.isArray(error.value)));
    }
  }
  return result;
}

/**
 * Validation the API applies to every body and query: whitelist, no coercion of JSON. Unknown body
 * fields are refused (400); unknown query parameters are ignored (api-decisions §4).
 */
export function createValidationPipe(): PipeTransform {
  const body = buildPipe(true);
  const query = buildPipe(false);
  return {
    transform: (value: unknown, metadata: ArgumentMetadata) =>
      metadata.type === 'query' ? query.transform(value, metadata) : body.transform(value, metadata),
  };
}

function buildPipe(forbidUnknown: boolean): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: forbidUnknown,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}

/** Finds strings with a NUL character anywhere in a parsed body or query (PostgreSQL rejects them in text). */
export function findNulBytes(value: unknown, path = '', found: FieldError[] = []): FieldError[] {
  return walkBody(value, path, found, false);
}

/**
 * Keys no body may carry: the validation pipe deletes them in place (they could reach an object's
 * prototype), so accepting them would silently drop what the client sent.
 */
export const RESERVED_BODY_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * What every JSON body is refused for, before anything reads it: NUL characters in a string or a
 * key, and the reserved keys (reported at the object that holds them: `metadata`, or `body`).
 */
export function findBodyProblems(value: unknown): FieldError[] {
  return walkBody(value, '', [], true);
}

function walkBody(value: unknown, path: string, found: FieldError[], reservedKeys: boolean): FieldError[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ field: path || 'body', message: 'must not contain NUL characters' });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => walkBody(item, `${path}[${index}]`, found, reservedKeys));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) found.push({ field: path || 'body', message: 'keys must not contain NUL characters' });
      if (reservedKeys && RESERVED_BODY_KEYS.includes(key)) found.push({ field: path || 'body', message: `key "${key}" is reserved` });
      walkBody(item, path ? `${path}.${key}` : key, found, reservedKeys);
    }
  }
  return found;
}
