/** Custom key/value data on a booking: flat, small, JSON-scalar values only. */
export type BookingMetadata = Record<string, string | number | boolean | null>;

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_STRING_LENGTH = 500;
/**
 * Keys refused because JavaScript treats them specially: the framework strips them from request
 * bodies (prototype-pollution defence), so they could never be stored faithfully.
 */
export const RESERVED_METADATA_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Every reason `value` is not valid booking metadata; empty when it is. */
export function metadataProblems(value: unknown): string[] {
  if (!isPlainObject(value)) return ['must be an object of keys to string, number, boolean or null values'];
  const problems: string[] = [];
  const keys = Object.keys(value);
  if (keys.length > METADATA_MAX_KEYS)
    problems.push(`must have at most ${METADATA_MAX_KEYS} keys (got ${keys.length})`);
  for (const key of keys) {
    const shown = key.length > 60 ? `${key.slice(0, 60)}…` : key;
    if (key.length === 0 || key.length > METADATA_MAX_KEY_LENGTH) {
      problems.push(`key "${shown}" must be 1-${METADATA_MAX_KEY_LENGTH} characters`);
    } else if (RESERVED_METADATA_KEYS.includes(key)) {
      problems.push(`key "${key}" is reserved`);
    }
    const item = value[key];
    const ok =
      item === null ||
      typeof item === 'boolean' ||
      (typeof item === 'number' && Number.isFinite(item)) ||
      (typeof item === 'string' && item.length <= METADATA_MAX_STRING_LENGTH);
    if (!ok) {
      problems.push(
        `value of "${shown}" must be a string of at most ${METADATA_MAX_STRING_LENGTH} characters, a finite number, a boolean or null`,
      );
    }
    if (problems.length >= 20) break;
  }
  return problems;
}

export function isBookingMetadata(value: unknown): value is BookingMetadata {
  return metadataProblems(value).length === 0;
}

/** The reserved keys present in a metadata value, as validation messages. */
export function reservedMetadataKeyProblems(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return RESERVED_METADATA_KEYS.filter((key) => Object.prototype.hasOwnProperty.call(value, key)).map(
    (key) => `key "${key}" is reserved`,
  );
}
