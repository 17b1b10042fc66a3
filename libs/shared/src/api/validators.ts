import { registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../domain/slug';
import { isCalendarDate, isDateTimeWithZone, isIanaTimeZone, isSupportedInstant, isTimeOfDay, parseDateOrDateTime, TIME_OF_DAY_PATTERN } from '../domain/time';
import { documentValidator, SchemaFragment } from './openapi-constraints';

/**
 * A class-validator decorator factory from a name, a test, the message for a failing value and the
 * JSON Schema keywords that state the test in the OpenAPI document (`{}` when JSON Schema cannot say
 * it: then the field's description must).
 */
export function simpleValidator(name: string, test: (value: unknown) => boolean, message: string, schema: SchemaFragment) {
  return (options?: ValidationOptions): PropertyDecorator =>
    (target: object, propertyName: string | symbol) => {
      registerDecorator({
        name,
        target: target.constructor,
        propertyName: propertyName as string,
        options: { message, ...options },
        validator: { validate: (value: unknown) => test(value) },
      });
      documentValidator(target, propertyName, name, schema);
    };
}

// Patterns for what the validators below accept. JSON Schema patterns have no flags: case is spelt out,
// and digits are [0-9] (to some regular expression engines \d is any Unicode digit).
/**
 * A date that exists, years 0001–9999 of the proleptic Gregorian calendar: days 29 and 30 in every
 * month but February, 31 in the long months, February 29 in leap years (divisible by 4, centuries only
 * by 400). Exactly what isCalendarDate accepts.
 */
const DATE =
  '((?!0000)[0-9]{4}-((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)' +
  '|([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)-02-29)';
const TIME_ZONE = '([Zz]|[+-]([01][0-9]|2[0-3]):?[0-5][0-9])';
const TIME = `([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?${TIME_ZONE}`;
/** What IsCalendarDate accepts. */
export const CALENDAR_DATE_PATTERN = `^${DATE}$`;
/** What IsDateTimeWithZone accepts (but for instants past the years 0001–9999 in UTC: 400). */
export const DATE_TIME_WITH_ZONE_PATTERN = `^${DATE}[Tt]${TIME}$`;
/** What IsDateOrDateTime accepts (the same way). */
export const DATE_OR_DATE_TIME_PATTERN = `^${DATE}([Tt]${TIME})?$`;

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
  // Not `format: date-time`: RFC 3339 needs seconds and a colon in the offset, this takes 10:00Z and +0100 too.
  { type: 'string', format: undefined, pattern: DATE_TIME_WITH_ZONE_PATTERN },
);
/** `YYYY-MM-DD`, a date that exists. */
export const IsCalendarDate = simpleValidator('isCalendarDate', isCalendarDate, 'must be a date YYYY-MM-DD that exists', {
  type: 'string',
  format: 'date',
  pattern: CALENDAR_DATE_PATTERN,
});
/** `HH:MM`, 00:00–23:59. */
export const IsTimeOfDay = simpleValidator('isTimeOfDay', isTimeOfDay, 'must be a time HH:MM between 00:00 and 23:59', {
  type: 'string',
  pattern: TIME_OF_DAY_PATTERN,
});
/** An IANA time zone name the runtime knows. */
export const IsIanaTimeZone = simpleValidator(
  'isIanaTimeZone',
  isIanaTimeZone,
  'must be an IANA time zone name such as Europe/Paris',
  // The shape of a name; whether the runtime knows the zone only the server can tell.
  { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$' },
);
/** Lowercase a-z0-9 with single inner hyphens, 1–100 characters. */
export const IsSlug = simpleValidator(
  'isSlug',
  (v) => typeof v === 'string' && v.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(v),
  'must be lowercase a-z0-9 with single inner hyphens, 1-100 characters',
  { type: 'string', minLength: 1, maxLength: SLUG_MAX_LENGTH, pattern: SLUG_PATTERN.source },
);
/** A date (`YYYY-MM-DD`) or a zoned date-time, as accepted by date-range filters. */
export const IsDateOrDateTime = simpleValidator(
  'isDateOrDateTime',
  (v) => typeof v === 'string' && parseDateOrDateTime(v) !== null,
  'must be a date YYYY-MM-DD or an ISO 8601 date-time with a zone',
  { type: 'string', pattern: DATE_OR_DATE_TIME_PATTERN },
);
export const HTTP_URL_MAX_LENGTH = 2000;

/** An absolute http(s) URL of at most 2,000 characters. */
export const IsHttpUrl = simpleValidator(
  'isHttpUrl',
  (v) => {
    if (typeof v !== 'string' || v.length > HTTP_URL_MAX_LENGTH) return false;
    try {
      const url = new URL(v);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  },
  'must be an absolute http(s) URL',
  { type: 'string', format: 'uri', maxLength: HTTP_URL_MAX_LENGTH, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' },
);

/** A zoned date-time whose instant lies in years 0001-9999 UTC (what the API can store and write back). */
export const IsSupportedInstant = simpleValidator(
  'isSupportedInstant',
  (value) => !isDateTimeWithZone(value) || isSupportedInstant(new Date(value)),
  'must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
  // An instant range in UTC; the four-digit year of the pattern comes close, the server decides the edges.
  {},
);
