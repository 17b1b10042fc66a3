import { Transform } from 'class-transformer';

/**
 * Query parameters arrive as strings. These transforms convert only well-formed values and leave
 * anything else untouched, so the validators that follow reject it with the parameter's name.
 */
export function QueryBoolean(): PropertyDecorator {
  return Transform(({ value }) => {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return value;
  });
}

export function QueryInt(): PropertyDecorator {
  return Transform(({ value }) => {
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
    return value;
  });
}
