import { documentValidator, isDateTimeWithZone, simpleValidator } from '@almanac/shared';
import { Transform } from 'class-transformer';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
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
export const BOOKING_METADATA_SCHEMA = {
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

/**
 * Keeps the JSON value exactly as parsed. class-transformer would rebuild a free-form object and
 * lose or mangle keys such as `constructor` or `__proto__` on the way.
 */
export function RawJson(): PropertyDecorator {
  return Transform(({ obj, key }) => (obj as Record<string, unknown>)[key], { toClassOnly: true });
}
