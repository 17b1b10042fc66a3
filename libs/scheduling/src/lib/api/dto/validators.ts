import { ApiPropertyOptional } from '@nestjs/swagger';
import { BodyMode, CALENDAR_DATE_PATTERN, createOnly, documentValidator, isDateTimeWithZone, simpleValidator } from '@almanac/shared';
import { IsInt, IsOptional, Max, Min, registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import {
  dateOverridesProblems,
  END_TIME_PATTERN,
  MAX_DATE_OVERRIDES,
  MAX_OVERRIDE_INTERVALS,
  MAX_WEEKLY_RULES,
  START_TIME_PATTERN,
  WEEKDAYS,
  weeklyRulesProblems,
} from '../../domain/availability';
import {
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_MAX_STRING_LENGTH,
  metadataProblems,
  RESERVED_METADATA_KEYS,
} from '../../domain/booking-metadata';

/** Text with at least one non-space character. */
export const NotBlank = simpleValidator(
  'notBlank',
  (value) => typeof value !== 'string' || value.trim().length > 0,
  'must not be blank',
  { minLength: 1, pattern: '\\S' },
);

/** A zoned date-time strictly after the one in `other` (checked only when both are well-formed). */
export function IsAfterField(other: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    // A comparison with another field: JSON Schema cannot state it, the field's description does.
    documentValidator(target, propertyName, 'isAfterField', {});
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
  };
}

/** Booking metadata as JSON Schema: everything metadataProblems checks. */
const BOOKING_METADATA_SCHEMA = {
  type: 'object',
  maxProperties: METADATA_MAX_KEYS,
  propertyNames: { minLength: 1, maxLength: METADATA_MAX_KEY_LENGTH, not: { enum: [...RESERVED_METADATA_KEYS] } },
  additionalProperties: {
    oneOf: [{ type: 'string', maxLength: METADATA_MAX_STRING_LENGTH }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
  },
};

/** Booking metadata: ≤ 50 keys of ≤ 40 characters; values string (≤ 500), number, boolean or null. */
export function IsBookingMetadata(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    documentValidator(target, propertyName, 'isBookingMetadata', BOOKING_METADATA_SCHEMA);
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
  };
}

function problemsValidator(
  name: string,
  problems: (value: unknown) => { field: string; message: string }[],
  schema: Record<string, unknown>,
): (options?: ValidationOptions) => PropertyDecorator {
  return (options) => (target: object, propertyName: string | symbol) => {
    documentValidator(target, propertyName, name, schema);
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
  };
}

// What the availability validators check, as far as JSON Schema can say it (start < end and distinct
// override dates are checked by the server only).
const START = { type: 'string', pattern: START_TIME_PATTERN };
const END = { type: 'string', pattern: END_TIME_PATTERN };
const INTERVAL = { type: 'object', additionalProperties: false, required: ['start', 'end'], properties: { start: START, end: END } };
const WEEKLY_RULES_SCHEMA = {
  type: 'array',
  maxItems: MAX_WEEKLY_RULES,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['days', 'start', 'end'],
    properties: {
      days: { type: 'array', minItems: 1, maxItems: 7, uniqueItems: true, items: { enum: [...WEEKDAYS] } },
      start: START,
      end: END,
    },
  },
};
const DATE_OVERRIDES_SCHEMA = {
  type: 'array',
  maxItems: MAX_DATE_OVERRIDES,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['date', 'intervals'],
    properties: {
      date: { type: 'string', format: 'date', pattern: CALENDAR_DATE_PATTERN },
      intervals: { type: 'array', maxItems: MAX_OVERRIDE_INTERVALS, items: INTERVAL },
    },
  },
};

/** A schedule's `availability`: null or ≤ 50 weekly rules `{days, start, end}`. */
export const IsWeeklyRules = problemsValidator('isWeeklyRules', (value) => weeklyRulesProblems(value), WEEKLY_RULES_SCHEMA);

/** A schedule's `date_overrides`: ≤ 366 overrides `{date, intervals}` of distinct dates. */
export const IsDateOverrides = problemsValidator('isDateOverrides', (value) => dateOverridesProblems(value), DATE_OVERRIDES_SCHEMA);

/**
 * A limit over periods (an event type's or a schedule's), as a body field: null (none, the default
 * on create) or a whole number from 1 to `max`; lowering one below what is booked is allowed.
 */
export const limitOverPeriods =
  (max: number, description: string) =>
  (mode: BodyMode): PropertyDecorator[] => [
    ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: max, ...createOnly(mode, { default: null }), description }),
    IsOptional(),
    IsInt(),
    Min(1),
    Max(max),
  ];
