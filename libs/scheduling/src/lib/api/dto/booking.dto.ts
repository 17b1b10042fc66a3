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
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CANCELLED_BY, type CancelledBy } from '../../domain/booking';
import type { BookingMetadata } from '../../domain/booking-metadata';
import { MANAGE_TOKEN_PATTERN, MAX_CANCELLATION_REASON } from '../../domain/booking-self-service';
import { BOOKING_STATUSES, BookingStatus } from '../../domain/booking-status';
import { LOCATION_TYPES, LocationType } from '../../domain/location-type';
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

/** The body of a create; the fields a PATCH shares are written here once, for both. */
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
