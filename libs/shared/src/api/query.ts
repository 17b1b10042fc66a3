import { Transform } from 'class-transformer';

/**
 * Query parameters arrive as strings. These transforms convert only well-formed values and leave
 * anything else untouched, so the validators that follow reject it with the parameter's name.
 */
export function QueryBoolean(): PropertyDecorator {
  return Transform(({ value }) => queryBoolean(value));
}

export function QueryInt(): PropertyDecorator {
  return Transform(({ value }) => queryInt(value));
}

/** `true`/`1` and `false`/`0` as booleans; anything else unchanged. */
export function queryBoolean(value: unknown): unknown {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

/** A string of at most 15 digits (an optional minus) as a number; anything else unchanged. */
export function queryInt(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return value;
}
