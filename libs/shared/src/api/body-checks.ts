import type { FieldError } from '../domain/domain-error';

// What every request is checked for before anything reads it, as plain functions: the API's middleware
// (http-middleware.ts) runs these.

/** The largest JSON body accepted (413 above it). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A client's `X-Request-Id` is echoed when it matches this; otherwise a fresh id is made. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** How deeply a JSON body may nest (objects and arrays); deeper bodies are refused before anything reads them. */
export const MAX_BODY_DEPTH = 64;

/** Finds strings with a NUL character anywhere in a parsed body or query (PostgreSQL rejects them in text). */
export function findNulBytes(value: unknown, path = ''): FieldError[] {
  return walkBody(value, path, false);
}

/**
 * Keys no body may carry: the validation pipe deletes them in place (they could reach an object's
 * prototype), so accepting them would silently drop what the client sent.
 */
export const RESERVED_BODY_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * What every JSON body is refused for, before anything reads it: nesting deeper than MAX_BODY_DEPTH
 * (one error, nothing else is looked at), NUL characters in a string or a key, and the reserved keys
 * (reported at the object that holds them: `metadata`, or `body`).
 */
export function findBodyProblems(value: unknown): FieldError[] {
  return walkBody(value, '', true);
}

/** No unpaired UTF-16 surrogate (String.prototype.isWellFormed, Node 20+; not yet in TypeScript's ES2023 lib). */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** At most this many problems are reported for one body (docs/contract/http.md, "Errors"). */
export const MAX_REPORTED_ERRORS = 100;

/**
 * Walks client data iteratively (an explicit stack, never recursion), so no depth of nesting can
 * overflow the call stack. Paths are built only for values that are reported.
 */
function walkBody(root: unknown, rootPath: string, bodyRules: boolean): FieldError[] {
  const found: FieldError[] = [];
  // A frame is a value to look at; `key` (with the holder's path) is checked when its frame comes up,
  // so problems are reported in document order, as a recursive walk would.
  const stack: Array<{ value: unknown; path: string; depth: number; key?: string; holder?: string }> = [
    { value: root, path: rootPath, depth: 0 },
  ];
  while (stack.length > 0 && found.length < MAX_REPORTED_ERRORS) {
    const { value, path, depth, key, holder } = stack.pop()!;
    if (key !== undefined) {
      if (key.includes('\u0000')) found.push({ field: holder || 'body', message: 'keys must not contain NUL characters' });
      if (!isWellFormed(key)) found.push({ field: holder || 'body', message: 'keys must not contain unpaired surrogates' });
      if (bodyRules && RESERVED_BODY_KEYS.includes(key)) found.push({ field: holder || 'body', message: `key "${key}" is reserved` });
    }
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push({ field: path || 'body', message: 'must not contain NUL characters' });
      // A lone \ud800 escape is valid JSON but no Unicode text: it cannot be stored as sent.
      if (!isWellFormed(value)) found.push({ field: path || 'body', message: 'must not contain unpaired surrogates' });
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      return [{ field: path || 'body', message: `must not nest deeper than ${MAX_BODY_DEPTH} levels` }];
    }
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        stack.push({ value: value[index], path: `${path}[${index}]`, depth: depth + 1 });
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let index = keys.length - 1; index >= 0; index--) {
      const name = keys[index];
      stack.push({ value: (value as Record<string, unknown>)[name], path: path ? `${path}.${name}` : name, depth: depth + 1, key: name, holder: path });
    }
  }
  return found.slice(0, MAX_REPORTED_ERRORS);
}
