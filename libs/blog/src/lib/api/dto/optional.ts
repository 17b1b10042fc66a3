import { IsOptional, ValidateIf } from 'class-validator';

/** May be left out, but never null (PATCH: absent means "unchanged"; null is a type error). */
export const OptionalNotNull = (): PropertyDecorator => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** May be left out or null (null clears the field). */
export const OptionalNullable = (): PropertyDecorator => IsOptional();
