import { registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../domain/slug';
import { isCalendarDate, isDateTimeWithZone, isIanaTimeZone, isSupportedInstant, isTimeOfDay, parseDateOrDateTime } from '../domain/time';

/** A class-validator decorator factory from a name, a test and the message for a failing value. */
export function simpleValidator(name: string, test: (value: unknown) => boolean, message: string) {
  return (options?: ValidationOptions): PropertyDecorator =>
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name,
        target: target.constructor,
        propertyName: propertyName as string,
        options: { message, ...options },
        validator: { validate: (value: unknown) => test(value) },
      });
}

/**
 * Optional, but not nullable: absent is fine, `null` is validated (and refused) like any other
 * value. For fields that cannot be cleared.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** ISO 8601 date-time with `Z` or an offset. */
export const IsDateTimeWithZone = simpleValidator(
  'isDateTimeWithZone',
  isDateTimeWithZone,
  'must be an ISO 8601 date-time with a zone (Z or ±hh:mm)',
);
/** `YYYY-MM-DD`, a date that exists. */
export const IsCalendarDate = simpleValidator('isCalendarDate', isCalendarDate, 'must be a date YYYY-MM-DD that exists');
/** `HH:MM`, 00:00–23:59. */
export const IsTimeOfDay = simpleValidator('isTimeOfDay', isTimeOfDay, 'must be a time HH:MM between 00:00 and 23:59');
/** An IANA time zone name the runtime knows. */
export const IsIanaTimeZone = simpleValidator('isIanaTimeZone', isIanaTimeZone, 'must be an IANA time zone name such as Europe/Paris');
/** Lowercase a-z0-9 with single inner hyphens, 1–100 characters. */
export const IsSlug = simpleValidator(
  'isSlug',
  (v) => typeof v === 'string' && v.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(v),
  'must be lowercase a-z0-9 with single inner hyphens, 1-100 characters',
);
/** A date (`YYYY-MM-DD`) or a zoned date-time, as accepted by date-range filters. */
export const IsDateOrDateTime = simpleValidator(
  'isDateOrDateTime',
  (v) => typeof v === 'string' && parseDateOrDateTime(v) !== null,
  'must be a date YYYY-MM-DD or an ISO 8601 date-time with a zone',
);
/** An absolute http(s) URL of at most 2,000 characters. */
export const IsHttpUrl = simpleValidator(
  'isHttpUrl',
  (v) => {
    if (typeof v !== 'string' || v.length > 2000) return false;
    try {
      const url = new URL(v);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  },
  'must be an absolute http(s) URL',
);

/** A zoned date-time whose instant lies in years 0001-9999 UTC (what the API can store and write back). */
export const IsSupportedInstant = simpleValidator(
  'isSupportedInstant',
  (value) => !isDateTimeWithZone(value) || isSupportedInstant(new Date(value)),
  'must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
);
