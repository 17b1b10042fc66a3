import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsCalendarDate, IsIanaTimeZone, IsTimeOfDay, OptionalNotNull, TIME_OF_DAY_PATTERN } from '@almanac/shared';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  DESCRIPTION_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  MAX_SLOTS,
  SITE_ID_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from '../../domain/event';
import { EVENT_STATUSES } from '../../domain/event-status';
import { MAX_COST } from '../../domain/money';
import { IsMoney } from './is-money.validator';

/**
 * The body fields of an event, shared by create (some required) and update (all optional). A field
 * that may be cleared accepts null; a field that always has a value refuses null even when optional.
 */
type Mode = 'create' | 'update';

/** Required on create; on update optional but never null. */
function valued(mode: Mode, required: boolean) {
  if (mode === 'create' && required) return IsDefined({ message: 'is required' });
  return OptionalNotNull();
}

export const TitleField = (mode: Mode) =>
  applyDecorators(
    (mode === 'create' ? ApiProperty : ApiPropertyOptional)({
      type: String,
      example: 'Community meetup',
      minLength: 1,
      maxLength: TITLE_MAX_LENGTH,
      description: 'Not blank',
    }),
    valued(mode, true),
    IsString(),
    MinLength(1),
    MaxLength(TITLE_MAX_LENGTH),
    Matches(/\S/, { message: 'must not be blank' }),
  );

export const DescriptionField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX_LENGTH, example: 'Talks and pizza.' }),
    IsOptional(),
    IsString(),
    MaxLength(DESCRIPTION_MAX_LENGTH),
  );

export const StartDateField = (mode: Mode) =>
  applyDecorators(
    (mode === 'create' ? ApiProperty : ApiPropertyOptional)({
      type: String,
      format: 'date',
      // The event's own rule (event-timing.ts), beside the validator's "a date that exists".
      pattern: '^[1-9][0-9]{3}-',
      example: '2026-12-01',
      description: 'YYYY-MM-DD, a date that exists, years 1000-9999; the day in the event\'s time zone',
    }),
    valued(mode, true),
    IsCalendarDate(),
  );

export const TimeOfDayField = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, pattern: TIME_OF_DAY_PATTERN, example: '18:30', description }),
    IsOptional(),
    IsTimeOfDay(),
  );

export const TimezoneField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, example: 'Europe/Paris', default: 'UTC', description: 'IANA time zone name' }),
    OptionalNotNull(),
    IsIanaTimeZone(),
  );

export const LocationField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: LOCATION_MAX_LENGTH, example: 'Town hall, Room 2' }),
    IsOptional(),
    IsString(),
    MaxLength(LOCATION_MAX_LENGTH),
  );

export const CostField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: Number,
      minimum: 0,
      maximum: MAX_COST,
      default: 0,
      example: 19.99,
      description:
        'Dollars with at most two decimals (19.99 yes, 0.001 no: 400), stored exactly. The two-decimal rule is stated here only: ' +
        'JSON Schema has no form of it that holds for binary floating point (`multipleOf: 0.01` refuses 19.99 in most validators)',
    }),
    OptionalNotNull(),
    IsMoney(),
  );

export const SlotsField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: MAX_SLOTS,
      example: 50,
      description: 'Maximum active registrations; null (the default) is unlimited',
    }),
    IsOptional(),
    IsInt(),
    Min(1),
    Max(MAX_SLOTS),
  );

export const WaitlistEnabledField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: Boolean,
      default: false,
      description: 'When full, registrations join a waiting list (201, status `waitlisted`) instead of 409 `event_full`',
    }),
    OptionalNotNull(),
    IsBoolean(),
  );

export const StatusField = (mode: Mode) =>
  applyDecorators(
    ApiPropertyOptional({
      enum: EVENT_STATUSES,
      enumName: 'EventStatus',
      example: 'published',
      ...(mode === 'create'
        ? { default: 'draft' }
        : { description: 'draft → published | cancelled; published → draft | cancelled; cancelled is final' }),
    }),
    OptionalNotNull(),
    IsIn(EVENT_STATUSES, { message: `must be one of ${EVENT_STATUSES.join(', ')}` }),
  );

export const SiteIdField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: SITE_ID_MAX_LENGTH, example: 'main-site', description: 'Opaque site identifier' }),
    IsOptional(),
    IsString(),
    MinLength(1),
    MaxLength(SITE_ID_MAX_LENGTH),
  );
