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

// The body checks moved to body-checks.ts (framework-free, also run by the bench's floor).
export { findBodyProblems, findNulBytes, RESERVED_BODY_KEYS } from './body-checks';
