import { isDateTimeWithZone } from '@almanac/shared';
import { registerDecorator, ValidateIf, ValidationArguments, ValidationOptions } from 'class-validator';
import { metadataProblems } from '../../domain/booking-metadata';

/**
 * Optional, but not nullable: absent is fine, `null` is validated (and refused) like any other
 * value. For PATCH fields that cannot be cleared.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** Text with at least one non-space character. */
export function NotBlank(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'notBlank',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must not be blank', ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || value.trim().length > 0 },
    });
}

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
