import type { FieldError } from '../domain/domain-error';

// What every request is checked for before anything reads it, framework-free: the API's middleware
// (http-middleware.ts) and the bench's floor (tools/bench/floor) both run these.

/** The largest JSON body accepted (413 above it). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A client's `X-Request-Id` is echoed when it matches this; otherwise a fresh id is made. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

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
