import { isDateTimeWithZone, simpleValidator } from '@almanac/shared';
import { Transform } from 'class-transformer';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { dateOverridesProblems, weeklyRulesProblems } from '../../domain/availability';
import { metadataProblems } from '../../domain/booking-metadata';

/** Text with at least one non-space character. */
export const NotBlank = simpleValidator(
  'notBlank',
  (value) => typeof value !== 'string' || value.trim().length > 0,
  'must not be blank',
);

/** A zoned date-time strictly after the one in `other` (checked only when both are well-formed). */
export function IsAfterField(other: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isAfterField',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [other],
      options: { message: `must be after ${other}`, ...options },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          const start = (args.object as Record<string, unknown>)[other];
          if (!isDateTimeWithZone(value) || !isDateTimeWithZone(start)) return true;
          return Date.parse(value) > Date.parse(start);
        },
      },
    });
}

/** Booking metadata: ≤ 50 keys of ≤ 40 characters; values string (≤ 500), number, boolean or null. */
export function IsBookingMetadata(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isBookingMetadata',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args: ValidationArguments) => metadataProblems(args.value).join('; '),
        ...options,
      },
      validator: { validate: (value: unknown) => metadataProblems(value).length === 0 },
    });
}

/**
 * Keeps the JSON value exactly as parsed. class-transformer would rebuild a free-form object and
 * lose or mangle keys such as `constructor` or `__proto__` on the way.
 */
export function RawJson(): PropertyDecorator {
  return Transform(({ obj, key }) => (obj as Record<string, unknown>)[key], { toClassOnly: true });
}

function problemsValidator(
  name: string,
  problems: (value: unknown) => { field: string; message: string }[],
): (options?: ValidationOptions) => PropertyDecorator {
  return (options) => (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args: ValidationArguments) =>
          problems(args.value)
            .map((p) => `${p.field}: ${p.message}`)
            .join('; '),
        ...options,
      },
      validator: { validate: (value: unknown) => problems(value).length === 0 },
    });
}

/** A schedule's `availability`: null or ≤ 50 weekly rules `{days, start, end}`. */
export const IsWeeklyRules = problemsValidator('isWeeklyRules', (value) => weeklyRulesProblems(value));

/** A schedule's `date_overrides`: ≤ 366 overrides `{date, intervals}` of distinct dates. */
export const IsDateOverrides = problemsValidator('isDateOverrides', (value) => dateOverridesProblems(value));
