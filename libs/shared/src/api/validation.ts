import { ArgumentMetadata, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError, ValidationFailedError } from '../domain/domain-error';
import { MAX_REPORTED_ERRORS } from './body-checks';

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
 * fields are refused (400); unknown query parameters are ignored (docs/contract/http.md, "Formats").
 */
export function createValidationPipe(): PipeTransform {
  const body = buildPipe(true);
  const query = buildPipe(false);
  return {
    transform: (value: unknown, metadata: ArgumentMetadata) => {
      if (metadata.type === 'query') return query.transform(value, metadata);
      // A DTO body must be one JSON object: an array, a string or a number gets one error, not one per item.
      if (metadata.type === 'body' && value !== undefined && isDtoClass(metadata.metatype) && (typeof value !== 'object' || value === null || Array.isArray(value))) {
        throw new ValidationFailedError([{ field: 'body', message: 'must be a JSON object' }]);
      }
      return body.transform(value, metadata);
    },
  };
}

const PRIMITIVES: readonly unknown[] = [String, Boolean, Number, Array, Object];

function isDtoClass(metatype: ArgumentMetadata['metatype']): boolean {
  return typeof metatype === 'function' && !PRIMITIVES.includes(metatype);
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
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors).slice(0, MAX_REPORTED_ERRORS)),
  });
}

// The body checks live in body-checks.ts (plain functions, run by the HTTP middleware); re-exported here.
export { findBodyProblems, findNulBytes, RESERVED_BODY_KEYS } from './body-checks';
