import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BodyField, createOnly, defaultedOnCreate, IsSlug, OptionalNotNull, PageQuery, PatchOf, QueryBoolean, requiredOnCreate } from '@almanac/shared';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  MAX_BOOKING_WINDOW_DAYS,
  MAX_BOOKINGS_PER_DAY,
  MAX_BUFFER,
  MAX_MINIMUM_NOTICE,
  MAX_SLOT_INTERVAL,
  MIN_SLOT_INTERVAL,
} from '../../domain/booking-rules';
import { MAX_BOOKED_MINUTES_PER_PERIOD, MAX_BOOKINGS_PER_PERIOD } from '../../domain/booking-limits';
import { EVENT_TYPE_MAX_DURATION, EVENT_TYPE_MIN_DURATION, HEX_COLOR_PATTERN } from '../../domain/event-type';
import { MAX_NOTICE_MINUTES } from '../../domain/booking-self-service';
import { LOCATION_TYPES, LocationType } from '../../domain/location-type';
import { limitOverPeriods, NotBlank } from './validators';

const COLOR_MESSAGE = 'must be a hex color #RGB or #RRGGBB';
const LIMIT_SCOPE = "this type's PENDING/CONFIRMED bookings on one schedule (with availability), by their start in the schedule time zone";
const WEEK_COUNT = `Bookings per week (Monday 00:00 to Monday 00:00) of ${LIMIT_SCOPE}; null: no limit`;
const MONTH_COUNT = `Bookings per calendar month of ${LIMIT_SCOPE}; null: no limit`;
const DAY_MINUTES = `Booked minutes (durations, without buffers) per local date of ${LIMIT_SCOPE}; null: no limit`;
const WEEK_MINUTES = `Booked minutes (durations, without buffers) per week (from Monday) of ${LIMIT_SCOPE}; null: no limit`;


/** Both buffers: whole minutes, 0 to MAX_BUFFER. */
const bufferRules = (): PropertyDecorator[] => [IsInt(), Min(0), Max(MAX_BUFFER)];
/** Both notices of the attendee: whole minutes, 0 to MAX_NOTICE_MINUTES. */
const noticeRules = (): PropertyDecorator[] => [IsInt(), Min(0), Max(MAX_NOTICE_MINUTES)];

/** The body of a create; each field's rules are written here once, for the PATCH too. */
export class CreateEventTypeDto {
  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ example: '30-minute intro call', maxLength: 300 })
      : ApiPropertyOptional({ example: '45-minute intro call', maxLength: 300 }),
    ...requiredOnCreate(mode),
    IsString(),
    NotBlank(),
    MaxLength(300),
  ])
  readonly title!: string;

  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ example: 30, minimum: 1, maximum: 1440, description: 'Minutes (integer)' })
      : ApiPropertyOptional({ example: 45, minimum: 1, maximum: 1440 }),
    ...requiredOnCreate(mode),
    IsInt(),
    Min(EVENT_TYPE_MIN_DURATION),
    Max(EVENT_TYPE_MAX_DURATION),
  ])
  readonly duration!: number;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create'
        ? {
            example: '30-minute-intro-call',
            description:
              'Generated from the title when absent (made unique with -2, -3…); a supplied slug that is taken: 409 slug_taken',
          }
        : { example: 'intro-call', description: 'A taken slug: 409 slug_taken. Changing the title keeps the slug.' },
    ),
    // Absent means "generate one"; null is refused (it used to reach the insert and fail there with a 500).
    OptionalNotNull(),
    IsSlug(),
  ])
  readonly slug?: string;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create'
        ? { example: 'A first conversation.', maxLength: 5000, nullable: true, type: String }
        : { maxLength: 5000, nullable: true, type: String },
    ),
    IsOptional(),
    IsString(),
    MaxLength(5000),
  ])
  readonly description?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional(mode === 'create' ? { enum: LOCATION_TYPES, default: 'video' } : { enum: LOCATION_TYPES }),
    ...defaultedOnCreate(mode),
    IsIn(LOCATION_TYPES),
  ])
  readonly location_type?: LocationType;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create'
        ? { example: 'Room 4, second floor', maxLength: 5000, nullable: true, type: String }
        : { maxLength: 5000, nullable: true, type: String },
    ),
    IsOptional(),
    IsString(),
    MaxLength(5000),
  ])
  readonly location_details?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create'
        ? { example: '#3b82f6', description: '#RGB or #RRGGBB', nullable: true, type: String }
        : { example: '#f59e0b', nullable: true, type: String },
    ),
    IsOptional(),
    IsString(),
    Matches(HEX_COLOR_PATTERN, { message: COLOR_MESSAGE }),
  ])
  readonly color?: string | null;

  @BodyField((mode) => [ApiPropertyOptional(mode === 'create' ? { default: false } : {}), ...defaultedOnCreate(mode), IsBoolean()])
  readonly requires_approval?: boolean;

  @BodyField((mode) => [ApiPropertyOptional(mode === 'create' ? { default: true } : {}), ...defaultedOnCreate(mode), IsBoolean()])
  readonly is_active?: boolean;

  @BodyField((mode) => [
    ApiPropertyOptional({ minimum: 0, maximum: MAX_BUFFER, ...createOnly(mode, { default: 0 }), description: 'Minutes kept free before each booking of this type' }),
    ...defaultedOnCreate(mode),
    ...bufferRules(),
  ])
  readonly buffer_before?: number;

  @BodyField((mode) => [
    ApiPropertyOptional({ minimum: 0, maximum: MAX_BUFFER, ...createOnly(mode, { default: 0 }), description: 'Minutes kept free after each booking of this type' }),
    ...defaultedOnCreate(mode),
    ...bufferRules(),
  ])
  readonly buffer_after?: number;

  @BodyField((mode) => [
    ApiPropertyOptional({ minimum: 0, maximum: MAX_MINIMUM_NOTICE, ...createOnly(mode, { default: 0 }), description: 'Minutes between now and the earliest bookable start' }),
    ...defaultedOnCreate(mode),
    IsInt(),
    Min(0),
    Max(MAX_MINIMUM_NOTICE),
  ])
  readonly minimum_notice?: number;

  @BodyField((mode) => [
    ApiPropertyOptional({ type: Number, nullable: true, minimum: MIN_SLOT_INTERVAL, maximum: MAX_SLOT_INTERVAL, ...createOnly(mode, { default: null }), description: 'Minutes between slot starts; null: the duration (slots still start at least 5 minutes apart)' }),
    IsOptional(),
    IsInt(),
    Min(MIN_SLOT_INTERVAL),
    Max(MAX_SLOT_INTERVAL),
  ])
  readonly slot_interval?: number | null;

  @BodyField((mode) => [
    ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: MAX_BOOKING_WINDOW_DAYS, ...createOnly(mode, { default: null }), description: 'Days ahead a start may be; null: unlimited' }),
    IsOptional(),
    IsInt(),
    Min(1),
    Max(MAX_BOOKING_WINDOW_DAYS),
  ])
  readonly booking_window_days?: number | null;

  @BodyField((mode) => [
    ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: MAX_BOOKINGS_PER_DAY, ...createOnly(mode, { default: null }), description: 'PENDING/CONFIRMED bookings of this type per schedule and local date; null: no limit' }),
    IsOptional(),
    IsInt(),
    Min(1),
    Max(MAX_BOOKINGS_PER_DAY),
  ])
  readonly max_bookings_per_day?: number | null;

  @BodyField(limitOverPeriods(MAX_BOOKINGS_PER_PERIOD, WEEK_COUNT))
  readonly max_bookings_per_week?: number | null;

  @BodyField(limitOverPeriods(MAX_BOOKINGS_PER_PERIOD, MONTH_COUNT))
  readonly max_bookings_per_month?: number | null;

  @BodyField(limitOverPeriods(MAX_BOOKED_MINUTES_PER_PERIOD, DAY_MINUTES))
  readonly max_booked_minutes_per_day?: number | null;

  @BodyField(limitOverPeriods(MAX_BOOKED_MINUTES_PER_PERIOD, WEEK_MINUTES))
  readonly max_booked_minutes_per_week?: number | null;

  @BodyField((mode) => [
    ApiPropertyOptional({ ...createOnly(mode, { default: true }), description: 'Whether the attendee may cancel a booking of this type through its manage token' }),
    ...defaultedOnCreate(mode),
    IsBoolean(),
  ])
  readonly attendee_can_cancel?: boolean;

  @BodyField((mode) => [
    ApiPropertyOptional({ ...createOnly(mode, { default: true }), description: 'Whether the attendee may reschedule a booking of this type through its manage token' }),
    ...defaultedOnCreate(mode),
    IsBoolean(),
  ])
  readonly attendee_can_reschedule?: boolean;

  @BodyField((mode) => [
    ApiPropertyOptional({ minimum: 0, maximum: MAX_NOTICE_MINUTES, ...createOnly(mode, { default: 0 }), description: 'Minutes before the start after which the attendee may no longer cancel' }),
    ...defaultedOnCreate(mode),
    ...noticeRules(),
  ])
  readonly cancel_notice_minutes?: number;

  @BodyField((mode) => [
    ApiPropertyOptional({ minimum: 0, maximum: MAX_NOTICE_MINUTES, ...createOnly(mode, { default: 0 }), description: 'Minutes before the current start after which the attendee may no longer reschedule' }),
    ...defaultedOnCreate(mode),
    ...noticeRules(),
  ])
  readonly reschedule_notice_minutes?: number;
}

/** Every create field; `description`, `location_details` and `color` may be set to null to clear them. */
export class UpdateEventTypeDto {
  @PatchOf(CreateEventTypeDto) readonly title?: string;
  @PatchOf(CreateEventTypeDto) readonly duration?: number;
  @PatchOf(CreateEventTypeDto) readonly slug?: string;
  @PatchOf(CreateEventTypeDto) readonly description?: string | null;
  @PatchOf(CreateEventTypeDto) readonly location_type?: LocationType;
  @PatchOf(CreateEventTypeDto) readonly location_details?: string | null;
  @PatchOf(CreateEventTypeDto) readonly color?: string | null;
  @PatchOf(CreateEventTypeDto) readonly requires_approval?: boolean;
  @PatchOf(CreateEventTypeDto) readonly is_active?: boolean;
  @PatchOf(CreateEventTypeDto) readonly buffer_before?: number;
  @PatchOf(CreateEventTypeDto) readonly buffer_after?: number;
  @PatchOf(CreateEventTypeDto) readonly minimum_notice?: number;
  @PatchOf(CreateEventTypeDto) readonly slot_interval?: number | null;
  @PatchOf(CreateEventTypeDto) readonly booking_window_days?: number | null;
  @PatchOf(CreateEventTypeDto) readonly max_bookings_per_day?: number | null;
  @PatchOf(CreateEventTypeDto) readonly max_bookings_per_week?: number | null;
  @PatchOf(CreateEventTypeDto) readonly max_bookings_per_month?: number | null;
  @PatchOf(CreateEventTypeDto) readonly max_booked_minutes_per_day?: number | null;
  @PatchOf(CreateEventTypeDto) readonly max_booked_minutes_per_week?: number | null;
  @PatchOf(CreateEventTypeDto) readonly attendee_can_cancel?: boolean;
  @PatchOf(CreateEventTypeDto) readonly attendee_can_reschedule?: boolean;
  @PatchOf(CreateEventTypeDto) readonly cancel_notice_minutes?: number;
  @PatchOf(CreateEventTypeDto) readonly reschedule_notice_minutes?: number;
}

export class EventTypeListQuery extends PageQuery {
  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'true (default): active event types; false: inactive ones',
  })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  readonly active?: boolean;
}

export class EventTypeResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ example: '30-minute intro call' })
  readonly title!: string;
  @ApiProperty({ example: '30-minute-intro-call' })
  readonly slug!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'A first conversation.',
    description: 'null when none was given',
  })
  readonly description!: string | null;
  @ApiProperty({ type: 'integer', example: 30, description: 'Minutes' })
  readonly duration!: number;
  @ApiProperty({ enum: LOCATION_TYPES, example: 'video' })
  readonly location_type!: LocationType;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Extra location details; always present, null when the record has none',
  })
  readonly location_details!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '#3b82f6',
    description: 'Hex color; null when none was given',
  })
  readonly color!: string | null;
  @ApiProperty({ example: false })
  readonly requires_approval!: boolean;
  @ApiProperty({ example: true })
  readonly is_active!: boolean;
  @ApiProperty({ type: 'integer', example: 0, minimum: 0, maximum: MAX_BUFFER, description: 'Minutes' })
  readonly buffer_before!: number;
  @ApiProperty({ type: 'integer', example: 0, minimum: 0, maximum: MAX_BUFFER, description: 'Minutes' })
  readonly buffer_after!: number;
  @ApiProperty({ type: 'integer', example: 0, minimum: 0, maximum: MAX_MINIMUM_NOTICE, description: 'Minutes' })
  readonly minimum_notice!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Minutes; null: the duration (slots still start at least 5 minutes apart)' })
  readonly slot_interval!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Days; null: unlimited' })
  readonly booking_window_days!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'null: no limit' })
  readonly max_bookings_per_day!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, minimum: 1, maximum: MAX_BOOKINGS_PER_PERIOD, description: WEEK_COUNT })
  readonly max_bookings_per_week!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, minimum: 1, maximum: MAX_BOOKINGS_PER_PERIOD, description: MONTH_COUNT })
  readonly max_bookings_per_month!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, minimum: 1, maximum: MAX_BOOKED_MINUTES_PER_PERIOD, description: DAY_MINUTES })
  readonly max_booked_minutes_per_day!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, minimum: 1, maximum: MAX_BOOKED_MINUTES_PER_PERIOD, description: WEEK_MINUTES })
  readonly max_booked_minutes_per_week!: number | null;
  @ApiProperty({ example: true, description: 'Whether the attendee may cancel through the manage token' })
  readonly attendee_can_cancel!: boolean;
  @ApiProperty({ example: true, description: 'Whether the attendee may reschedule through the manage token' })
  readonly attendee_can_reschedule!: boolean;
  @ApiProperty({ type: 'integer', example: 0, minimum: 0, maximum: MAX_NOTICE_MINUTES, description: 'Minutes before the start' })
  readonly cancel_notice_minutes!: number;
  @ApiProperty({ type: 'integer', example: 0, minimum: 0, maximum: MAX_NOTICE_MINUTES, description: 'Minutes before the current start' })
  readonly reschedule_notice_minutes!: number;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  readonly created_at!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  readonly updated_at!: string;
}

export class EventTypeDeletedResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ example: true, enum: [true] })
  readonly deleted!: boolean;
}
