import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ApiBodyRules,
  BodyField,
  createOnly,
  BodyMode,
  defaultedOnCreate,
  IsDateOrDateTime,
  IsDateTimeWithZone,
  IsIanaTimeZone,
  IsSupportedInstant,
  OptionalNotNull,
  PageQuery,
  PatchOf,
  QueryBoolean,
  requiredOnCreate,
} from '@almanac/shared';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CANCELLED_BY, type CancelledBy } from '../../domain/booking';
import type { BookingMetadata } from '../../domain/booking-metadata';
import { MANAGE_TOKEN_PATTERN, MAX_CANCELLATION_REASON } from '../../domain/booking-self-service';
import { BOOKING_STATUSES, BookingStatus } from '../../domain/booking-status';
import { CANDIDATE_REASON_ORDER, CandidateConflictReason } from '../../domain/booking-candidates';
import { LOCATION_TYPES, LocationType } from '../../domain/location-type';
import {
  MAX_RECURRENCE_COUNT,
  MAX_RECURRENCE_INTERVAL,
  MIN_RECURRENCE_COUNT,
  MIN_RECURRENCE_INTERVAL,
  RECURRENCE_FREQUENCIES,
  RecurrenceFrequency,
} from '../../domain/recurrence';
import { IsAfterField, IsBookingMetadata, NotBlank } from './validators';

const METADATA_DOC = {
  type: 'object',
  additionalProperties: true,
  example: { source: 'website', visits: 3 },
  description:
    'Custom data: at most 50 keys of at most 40 characters; values string (≤ 500 characters), number, boolean or null',
} as const;

/** On PATCH, start_time and end_time go together (a reschedule); on create both are required. */
function rescheduleTogether(mode: BodyMode, other: 'start_time' | 'end_time'): PropertyDecorator[] {
  if (mode === 'create') return [];
  return [
    ValidateIf((o: UpdateBookingDto) => o.start_time !== undefined || o.end_time !== undefined),
    IsDefined({ message: `is required together with ${other}` }),
  ];
}

/** The attendee of a create; each field's rules are written here once, for the PATCH too. */
export class AttendeeInput {
  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ example: 'Ada Lovelace', maxLength: 300 })
      : ApiPropertyOptional({ example: 'Ada King', maxLength: 300 }),
    ...requiredOnCreate(mode),
    IsString(),
    NotBlank(),
    MaxLength(300),
  ])
  readonly name!: string;

  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ example: 'ada@example.com', format: 'email', maxLength: 320 })
      : ApiPropertyOptional({ example: 'ada.king@example.com', format: 'email', maxLength: 320 }),
    ...requiredOnCreate(mode),
    IsString(),
    MaxLength(320),
    IsEmail({}, { message: 'must be an e-mail address' }),
  ])
  readonly email!: string;

  @BodyField((mode) => [
    ApiPropertyOptional({ ...createOnly(mode, { example: '+44 20 7946 0958' }), maxLength: 50, nullable: true, type: String }),
    IsOptional(),
    IsString(),
    MinLength(1),
    MaxLength(50),
  ])
  readonly phone?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional({ ...createOnly(mode, { example: 'Europe/London' }), description: 'IANA time zone name', nullable: true, type: String }),
    IsOptional(),
    IsIanaTimeZone(),
  ])
  readonly timezone?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional({ ...createOnly(mode, { example: 'Prefers mornings.' }), maxLength: 5000, nullable: true, type: String }),
    IsOptional(),
    IsString(),
    MaxLength(5000),
  ])
  readonly notes?: string | null;
}

export class RecurrenceInput {
  @ApiProperty({
    enum: RECURRENCE_FREQUENCIES,
    description:
      "daily, weekly or monthly; each occurrence starts at the first one's wall-clock time in the booking's timezone. A monthly series repeats the first's day of month, which must be 1–28 (else 400 naming start_time)",
  })
  @IsIn(RECURRENCE_FREQUENCIES)
  readonly frequency!: RecurrenceFrequency;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_RECURRENCE_INTERVAL,
    maximum: MAX_RECURRENCE_INTERVAL,
    example: 1,
    description: 'Every interval days, weeks or months; default 1',
  })
  @OptionalNotNull()
  @IsInt()
  @Min(MIN_RECURRENCE_INTERVAL)
  @Max(MAX_RECURRENCE_INTERVAL)
  readonly interval?: number;

  @ApiProperty({
    type: 'integer',
    minimum: MIN_RECURRENCE_COUNT,
    maximum: MAX_RECURRENCE_COUNT,
    example: 10,
    description: 'How many occurrences, the first included',
  })
  @IsInt()
  @Min(MIN_RECURRENCE_COUNT)
  @Max(MAX_RECURRENCE_COUNT)
  readonly count!: number;
}

/**
 * The body of a create; the fields a PATCH shares are written here once, for both. With `recurrence`
 * it makes a series of bookings (each occurrence as long as the first).
 */
@ApiBodyRules({ dependentRequired: { on_conflict: ['recurrence'] } })
export class CreateBookingDto {
  @ApiProperty({
    format: 'uuid',
    description: 'A schedule of this organization (else 422 invalid_reference)',
  })
  @IsString()
  readonly schedule_id!: string;

  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ example: '2026-11-21T10:00:00+01:00', format: 'date-time', description: 'ISO 8601 with Z or an offset' })
      : ApiPropertyOptional({ format: 'date-time', description: 'With end_time: reschedule (PENDING or CONFIRMED only)' }),
    ...rescheduleTogether(mode, 'end_time'),
    IsDateTimeWithZone(),
    IsSupportedInstant(),
  ])
  readonly start_time!: string;

  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ example: '2026-11-21T10:30:00+01:00', format: 'date-time', description: 'After start_time' })
      : ApiPropertyOptional({ format: 'date-time', description: 'With start_time: reschedule; after start_time' }),
    ...rescheduleTogether(mode, 'start_time'),
    IsDateTimeWithZone(),
    IsSupportedInstant(),
    IsAfterField('start_time'),
  ])
  readonly end_time!: string;

  @BodyField((mode) => [
    mode === 'create' ? ApiProperty({ type: AttendeeInput }) : ApiPropertyOptional({ type: UpdateAttendeeInput }),
    mode === 'create' ? IsDefined() : OptionalNotNull(),
    IsObject(),
    ValidateNested(),
    Type(() => (mode === 'create' ? AttendeeInput : UpdateAttendeeInput)),
  ])
  readonly attendee!: AttendeeInput;

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'An event type of this organization (else 422)',
  })
  @IsOptional()
  @IsString()
  readonly event_type_id?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create'
        ? { example: 'Europe/Paris', description: "IANA time zone name; default: the schedule's", nullable: true, type: String }
        : { description: 'IANA time zone name' },
    ),
    ...defaultedOnCreate(mode),
    IsIanaTimeZone(),
  ])
  readonly timezone?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create'
        ? {
            example: 'Intro call with Ada',
            maxLength: 300,
            nullable: true,
            type: String,
            description: 'Default: the event type\'s title, else "Booking"',
          }
        : { maxLength: 300 },
    ),
    ...defaultedOnCreate(mode),
    IsString(),
    NotBlank(),
    MaxLength(300),
  ])
  readonly title?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional({ ...createOnly(mode, { example: 'https://meet.example.com/abc' }), maxLength: 500, nullable: true, type: String }),
    IsOptional(),
    IsString(),
    MaxLength(500),
  ])
  readonly location?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional({
      type: String,
      enum: [...LOCATION_TYPES, null],
      nullable: true,
      ...createOnly(mode, { description: "Default: the event type's location_type, else null" }),
    }),
    IsOptional(),
    IsIn(LOCATION_TYPES),
  ])
  readonly location_type?: LocationType | null;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create' ? METADATA_DOC : { ...METADATA_DOC, description: `Replaces the whole object. ${METADATA_DOC.description}` },
    ),
    ...defaultedOnCreate(mode),
    IsBookingMetadata(),
  ])
  readonly metadata?: BookingMetadata | null;

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description:
      "A reservation (POST /api/v1/slots/reservations) of exactly this booking's schedule, event type, start and end, consumed by the booking in its own transaction: 409 reservation_mismatch when one of those differs, 409 reservation_expired when it is unknown, expired, released or already consumed (of concurrent bookings naming it, one wins)",
  })
  @IsOptional()
  @IsString()
  readonly reservation_id?: string | null;

  @ApiPropertyOptional({
    type: RecurrenceInput,
    description:
      'Makes a recurring series: start_time and end_time are the first occurrence. Every occurrence must meet every rule a single booking meets; one that does not fails the whole series (409 recurrence_conflict naming all that do not), unless on_conflict is skip. The answer is then the series (series_id, recurrence, bookings, skipped), not a single booking.',
  })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => RecurrenceInput)
  readonly recurrence?: RecurrenceInput;

  @ApiPropertyOptional({
    enum: ['skip'],
    description:
      'With recurrence only: create the occurrences that fit and list the others in skipped (409 recurrence_conflict when none fits). Absent: all or nothing',
  })
  @OptionalNotNull()
  @IsIn(['skip'])
  readonly on_conflict?: 'skip';
}

/** Any attendee field; name and e-mail cannot be cleared, the others can (null). */
export class UpdateAttendeeInput {
  @PatchOf(AttendeeInput) readonly name?: string;
  @PatchOf(AttendeeInput) readonly email?: string;
  @PatchOf(AttendeeInput) readonly phone?: string | null;
  @PatchOf(AttendeeInput) readonly timezone?: string | null;
  @PatchOf(AttendeeInput) readonly notes?: string | null;
}

/**
 * A partial update. `status` moves as `BOOKING_TRANSITIONS` allows; `start_time` and `end_time` together reschedule a
 * PENDING or CONFIRMED booking. Any other field (id, schedule_id, event_type_id, created_at…): 400.
 */
@ApiBodyRules({ dependentRequired: { start_time: ['end_time'], end_time: ['start_time'] } })
export class UpdateBookingDto {
  @ApiPropertyOptional({
    enum: BOOKING_STATUSES,
    description:
      'PENDING → CONFIRMED | CANCELLED; CONFIRMED → COMPLETED | CANCELLED | NO_SHOW. Any other move (the same status included): 409 invalid_transition',
  })
  @OptionalNotNull()
  @IsIn(BOOKING_STATUSES)
  readonly status?: BookingStatus;

  @PatchOf(CreateBookingDto) readonly start_time?: string;
  @PatchOf(CreateBookingDto) readonly end_time?: string;
  @PatchOf(CreateBookingDto) readonly title?: string;
  @PatchOf(CreateBookingDto) readonly location?: string | null;
  @PatchOf(CreateBookingDto) readonly location_type?: LocationType | null;
  @PatchOf(CreateBookingDto) readonly timezone?: string;
  @PatchOf(CreateBookingDto) readonly metadata?: BookingMetadata;
  @PatchOf(CreateBookingDto) readonly attendee?: UpdateAttendeeInput;
}

export class BookingListQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only bookings of this schedule' })
  @IsOptional()
  @IsUUID('all')
  readonly schedule_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only bookings of this event type' })
  @IsOptional()
  @IsUUID('all')
  readonly event_type_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the occurrences of this recurring series' })
  @IsOptional()
  @IsUUID('all')
  readonly series_id?: string;

  @ApiPropertyOptional({ enum: BOOKING_STATUSES })
  @IsOptional()
  @IsIn(BOOKING_STATUSES)
  readonly status?: BookingStatus;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only bookings starting now or later; false: no filter',
  })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  readonly upcoming?: boolean;

  @ApiPropertyOptional({
    example: '2026-11-21',
    description: 'Bookings starting on or after this date (from 00:00 UTC) or zoned date-time',
  })
  @IsOptional()
  @IsDateOrDateTime()
  readonly start_date?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description: 'Bookings starting on or before this date (the whole UTC day) or zoned date-time',
  })
  @IsOptional()
  @IsDateOrDateTime()
  readonly end_date?: string;

  @ApiPropertyOptional({
    example: 'example.com',
    description: 'Case-insensitive substring of the attendee e-mail',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  readonly attendee_email?: string;
}

export class BookingResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ format: 'uuid' })
  readonly schedule_id!: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'null when none, or when the event type was deleted',
  })
  readonly event_type_id!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The recurring series this booking is an occurrence of (GET /api/v1/booking-series/{id}); null for a single booking',
  })
  readonly series_id!: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:00:00.000Z' })
  readonly start_time!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:30:00.000Z' })
  readonly end_time!: string;
  @ApiProperty({ example: 'Europe/Paris', description: "IANA time zone; default the schedule's" })
  readonly timezone!: string;
  @ApiProperty({ enum: BOOKING_STATUSES, example: 'PENDING' })
  readonly status!: BookingStatus;
  @ApiProperty({ example: 'Intro call with Ada' })
  readonly title!: string;
  @ApiProperty({ type: String, nullable: true })
  readonly location!: string | null;
  @ApiProperty({
    type: String,
    enum: [...LOCATION_TYPES, null],
    nullable: true,
    description: "Default: the event type's",
  })
  readonly location_type!: LocationType | null;
  @ApiProperty({ example: 'Ada Lovelace' })
  readonly attendee_name!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ada@example.com',
    description:
      'Always set for bookings made through the API; null for an imported calendar event that names no e-mail',
  })
  readonly attendee_email!: string | null;
  @ApiProperty({ type: String, nullable: true })
  readonly attendee_phone!: string | null;
  @ApiProperty({ type: String, nullable: true })
  readonly attendee_timezone!: string | null;
  @ApiProperty({ type: String, nullable: true })
  readonly attendee_notes!: string | null;
  @ApiProperty({ ...METADATA_DOC, description: 'Custom data; {} when none' })
  readonly metadata!: BookingMetadata;
  @ApiProperty({ type: 'integer', example: 0, minimum: 0, maximum: 720, description: "Minutes kept free before it: its event type's buffer_before when it was made; 0 without one" })
  readonly buffer_before!: number;
  @ApiProperty({ type: 'integer', example: 0, minimum: 0, maximum: 720, description: "Minutes kept free after it: its event type's buffer_after when it was made; 0 without one" })
  readonly buffer_after!: number;
  @ApiProperty({ format: 'date-time' })
  readonly created_at!: string;
  @ApiProperty({ format: 'date-time' })
  readonly updated_at!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it was cancelled; null otherwise',
  })
  readonly cancelled_at!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: MAX_CANCELLATION_REASON,
    example: null,
    description: 'The reason the attendee gave when cancelling it through its manage token; null otherwise',
  })
  readonly cancellation_reason!: string | null;
  @ApiProperty({
    type: String,
    enum: CANCELLED_BY,
    nullable: true,
    example: null,
    description: 'Who cancelled it: attendee (through its manage token), api or import; null while it is not cancelled',
  })
  readonly cancelled_by!: CancelledBy | null;
}

/** The answer of a create: the booking, and once, the token that lets its attendee manage it. */
export class CreatedBookingResponse extends BookingResponse {
  @ApiProperty({
    pattern: MANAGE_TOKEN_PATTERN.source,
    example: 'bkt_3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue',
    description:
      "The booking's manage token, shown only here (only its hash is kept): whoever has it may see, cancel and reschedule the booking under /public/v1/bookings/{token}, as its event type allows. POST /api/v1/bookings/{id}/manage-token replaces it.",
  })
  readonly manage_token!: string;
}

/** A new manage token (the old one opens nothing from now on). */
export class ManageTokenResponse {
  @ApiProperty({ pattern: MANAGE_TOKEN_PATTERN.source, example: 'bkt_3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue' })
  readonly manage_token!: string;
}

export class CancelledBookingResponse extends BookingResponse {
  @ApiProperty({ example: true, enum: [true] })
  readonly cancelled!: boolean;
}

export class RecurrenceResponse {
  @ApiProperty({ enum: RECURRENCE_FREQUENCIES })
  readonly frequency!: RecurrenceFrequency;
  @ApiProperty({ type: 'integer', minimum: MIN_RECURRENCE_INTERVAL, maximum: MAX_RECURRENCE_INTERVAL, example: 1 })
  readonly interval!: number;
  @ApiProperty({ type: 'integer', minimum: MIN_RECURRENCE_COUNT, maximum: MAX_RECURRENCE_COUNT, example: 10 })
  readonly count!: number;
}

/** An occurrence of a series that was not created, and why. */
export class OccurrenceConflict {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Its place in the series, 0 for the first' })
  readonly index!: number;
  @ApiProperty({ format: 'date-time' })
  readonly start_time!: string;
  @ApiProperty({ format: 'date-time' })
  readonly end_time!: string;
  @ApiProperty({
    enum: CANDIDATE_REASON_ORDER,
    description:
      'booking_overlap (its blocked time, buffers included, overlaps a PENDING or CONFIRMED booking, or an earlier occurrence of the series), reserved (an unexpired reservation holds part of it), event (a published event of the schedule does), or another slot_unavailable reason; when several apply, the first of this list',
  })
  readonly reason!: CandidateConflictReason;
}

/** The answer to a create with `recurrence`. */
export class CreatedBookingSeriesResponse {
  @ApiProperty({ format: 'uuid' })
  readonly series_id!: string;
  @ApiProperty({ type: RecurrenceResponse, description: 'The recurrence, its defaults filled in' })
  readonly recurrence!: RecurrenceResponse;
  @ApiProperty({ type: [CreatedBookingResponse], description: 'The occurrences created, by start, each with its manage token (shown only here)' })
  readonly bookings!: CreatedBookingResponse[];
  @ApiProperty({ type: [OccurrenceConflict], description: 'The occurrences left out (on_conflict: skip); [] otherwise' })
  readonly skipped!: OccurrenceConflict[];
}

export class BookingSeriesResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ type: RecurrenceResponse })
  readonly recurrence!: RecurrenceResponse;
  @ApiProperty({ type: [BookingResponse], description: 'Every occurrence, whatever its status, by start' })
  readonly bookings!: BookingResponse[];
}

export class CancelledBookingSeriesResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many occurrences this request cancelled' })
  readonly cancelled!: number;
}

export class CancelBookingSeriesQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'An occurrence of the series: cancel it and the later ones (else every PENDING or CONFIRMED one)',
  })
  @IsOptional()
  @IsUUID('all')
  readonly from?: string;
}
