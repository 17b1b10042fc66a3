import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ApiBodyRules,
  BodyField,
  BodyMode,
  IsCalendarDate,
  IsIanaTimeZone,
  IsTimeOfDay,
  OptionalNotNull,
  PatchOf,
  TIME_OF_DAY_PATTERN,
} from '@almanac/shared';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  DESCRIPTION_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  MAX_SLOTS,
  SITE_ID_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from '../../domain/event';
import { EVENT_STATUSES, EventStatus } from '../../domain/event-status';
import { MAX_COST } from '../../domain/money';
import { IsMoney } from './is-money.validator';

/*
 * The body of an event: each field's documentation and rules are written once, on the create body,
 * and the update body takes them in update mode (@PatchOf). A field that may be cleared accepts null;
 * a field that always has a value refuses null even when optional. A field's rules are listed as
 * they would be stacked: the lowest is checked, and its message reported, first.
 */

/** Required on create; on update optional but never null. */
function valued(mode: BodyMode): PropertyDecorator {
  return mode === 'create' ? IsDefined({ message: 'is required' }) : OptionalNotNull();
}

/** `HH:MM`, or null; `description` says what it means in each mode. */
function timeOfDay(description: string): PropertyDecorator[] {
  return [
    ApiPropertyOptional({ type: String, nullable: true, pattern: TIME_OF_DAY_PATTERN, example: '18:30', description }),
    IsTimeOfDay(),
    IsOptional(),
  ];
}

// An end time needs a start time (event-timing.ts); on update the stored start time counts too.
@ApiBodyRules({
  if: { required: ['end_time'], properties: { end_time: { type: 'string' } } },
  then: { required: ['start_time'], properties: { start_time: { type: 'string' } } },
})
export class CreateEventDto {
  @BodyField((mode) => [
    (mode === 'create' ? ApiProperty : ApiPropertyOptional)({
      type: String,
      example: 'Community meetup',
      minLength: 1,
      maxLength: TITLE_MAX_LENGTH,
      description: 'Not blank',
    }),
    Matches(/\S/, { message: 'must not be blank' }),
    MaxLength(TITLE_MAX_LENGTH),
    MinLength(1),
    IsString(),
    valued(mode),
  ])
  readonly title!: string;

  @BodyField((mode) => [
    (mode === 'create' ? ApiProperty : ApiPropertyOptional)({
      type: String,
      format: 'date',
      // The event's own rule (event-timing.ts), beside the validator's "a date that exists".
      pattern: '^[1-9][0-9]{3}-',
      example: '2026-12-01',
      description: 'YYYY-MM-DD, a date that exists, years 1000-9999; the day in the event\'s time zone',
    }),
    IsCalendarDate(),
    valued(mode),
  ])
  readonly start_date!: string;

  @BodyField(() => [
    ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX_LENGTH, example: 'Talks and pizza.' }),
    MaxLength(DESCRIPTION_MAX_LENGTH),
    IsString(),
    IsOptional(),
  ])
  readonly description?: string | null;

  @BodyField((mode) =>
    timeOfDay(
      mode === 'create'
        ? 'HH:MM, local time in the event\'s time zone; absent means the whole day'
        : 'HH:MM; null clears it (end_time must be cleared with it)',
    ),
  )
  readonly start_time?: string | null;

  @BodyField((mode) =>
    timeOfDay(
      mode === 'create'
        ? 'HH:MM, after start_time (which it needs); absent means until the end of the day'
        : 'HH:MM, after start_time; null clears it',
    ),
  )
  readonly end_time?: string | null;

  @BodyField(() => [
    ApiPropertyOptional({ type: String, example: 'Europe/Paris', default: 'UTC', description: 'IANA time zone name' }),
    IsIanaTimeZone(),
    OptionalNotNull(),
  ])
  readonly timezone?: string;

  @BodyField(() => [
    ApiPropertyOptional({ type: String, nullable: true, maxLength: LOCATION_MAX_LENGTH, example: 'Town hall, Room 2' }),
    MaxLength(LOCATION_MAX_LENGTH),
    IsString(),
    IsOptional(),
  ])
  readonly location?: string | null;

  @BodyField(() => [
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
    IsMoney(),
    OptionalNotNull(),
  ])
  readonly cost?: number;

  @BodyField(() => [
    ApiPropertyOptional({
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: MAX_SLOTS,
      example: 50,
      description: 'Maximum active registrations; null (the default) is unlimited',
    }),
    Max(MAX_SLOTS),
    Min(1),
    IsInt(),
    IsOptional(),
  ])
  readonly slots?: number | null;

  @BodyField(() => [
    ApiPropertyOptional({
      type: Boolean,
      default: false,
      description: 'When full, registrations join a waiting list (201, status `waitlisted`) instead of 409 `event_full`',
    }),
    IsBoolean(),
    OptionalNotNull(),
  ])
  readonly waitlist_enabled?: boolean;

  @BodyField((mode) => [
    ApiPropertyOptional({
      enum: EVENT_STATUSES,
      enumName: 'EventStatus',
      example: 'published',
      ...(mode === 'create'
        ? { default: 'draft' }
        : { description: 'draft → published | cancelled; published → draft | cancelled; cancelled is final' }),
    }),
    IsIn(EVENT_STATUSES, { message: `must be one of ${EVENT_STATUSES.join(', ')}` }),
    OptionalNotNull(),
  ])
  readonly status?: EventStatus;

  @BodyField(() => [
    ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: SITE_ID_MAX_LENGTH, example: 'main-site', description: 'Opaque site identifier' }),
    MaxLength(SITE_ID_MAX_LENGTH),
    MinLength(1),
    IsString(),
    IsOptional(),
  ])
  readonly site_id?: string | null;

  @BodyField(() => [
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description:
        "The schedule of the event's host (a schedule of this organization, else 422 invalid_reference). While published, the event holds that schedule's time from its start to its end (a day-long event: the whole local day in its zone): bookings overlapping it get 409 booking_overlap with event_id, reservations 409 slot_unavailable (reason event), /slots hides it; publishing or moving it over bookings, reservations or events already there: 409 schedule_conflict listing them. null: on no schedule",
    }),
    IsString(),
    IsOptional(),
  ])
  readonly schedule_id?: string | null;
}

/** Every create field, all optional; null clears a nullable field. At least one field is required. */
export class UpdateEventDto {
  @PatchOf(CreateEventDto) readonly title?: string;
  @PatchOf(CreateEventDto) readonly start_date?: string;
  @PatchOf(CreateEventDto) readonly description?: string | null;
  @PatchOf(CreateEventDto) readonly start_time?: string | null;
  @PatchOf(CreateEventDto) readonly end_time?: string | null;
  @PatchOf(CreateEventDto) readonly timezone?: string;
  @PatchOf(CreateEventDto) readonly location?: string | null;
  @PatchOf(CreateEventDto) readonly cost?: number;
  @PatchOf(CreateEventDto) readonly slots?: number | null;
  @PatchOf(CreateEventDto) readonly waitlist_enabled?: boolean;
  @PatchOf(CreateEventDto) readonly status?: EventStatus;
  @PatchOf(CreateEventDto) readonly site_id?: string | null;
  @PatchOf(CreateEventDto) readonly schedule_id?: string | null;
}
