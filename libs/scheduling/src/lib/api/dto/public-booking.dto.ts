import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateTimeWithZone, IsSupportedInstant } from '@almanac/shared';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { BOOKING_STATUSES, BookingStatus } from '../../domain/booking-status';
import { MAX_CANCELLATION_REASON } from '../../domain/booking-self-service';
import { LOCATION_TYPES, LocationType } from '../../domain/location-type';

export class AttendeeCancelDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_CANCELLATION_REASON,
    example: 'I have to travel that week.',
    description: "Why the attendee cancels; kept as the booking's cancellation_reason",
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CANCELLATION_REASON)
  readonly reason?: string | null;
}

export class AttendeeRescheduleDto {
  @ApiProperty({
    example: '2026-11-24T14:00:00+01:00',
    format: 'date-time',
    description: 'The new start, ISO 8601 with Z or an offset; the booking keeps its length',
  })
  @IsDateTimeWithZone()
  @IsSupportedInstant()
  readonly start_time!: string;
}

export class AttendeeEventType {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ example: '30-minute intro call' })
  readonly title!: string;
  @ApiProperty({ type: 'integer', example: 30, description: 'Minutes' })
  readonly duration!: number;
}

/** What the holder of a manage token sees: never the attendee's e-mail, phone, notes or the metadata. */
export class AttendeeBookingResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ enum: BOOKING_STATUSES, example: 'PENDING' })
  readonly status!: BookingStatus;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:00:00.000Z' })
  readonly start_time!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:30:00.000Z' })
  readonly end_time!: string;
  @ApiProperty({ example: 'Europe/Paris' })
  readonly timezone!: string;
  @ApiProperty({ example: '30-minute intro call' })
  readonly title!: string;
  @ApiProperty({ type: String, nullable: true, example: null })
  readonly location!: string | null;
  @ApiProperty({ enum: LOCATION_TYPES, nullable: true, example: 'video' })
  readonly location_type!: LocationType | null;
  @ApiProperty({ example: 'Ada Lovelace' })
  readonly attendee_name!: string;
  @ApiProperty({ type: AttendeeEventType, nullable: true, description: 'null when the booking has no event type (any more)' })
  readonly event_type!: AttendeeEventType | null;
  @ApiProperty({ example: true, description: 'Whether the attendee may cancel it now' })
  readonly can_cancel!: boolean;
  @ApiProperty({ example: true, description: 'Whether the attendee may reschedule it now' })
  readonly can_reschedule!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "The start minus the event type's cancel_notice_minutes (that instant included); null when its status or its event type forbids cancelling",
  })
  readonly cancellable_until!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "The start minus the event type's reschedule_notice_minutes (that instant included); null when its status or its event type forbids rescheduling",
  })
  readonly reschedulable_until!: string | null;
}
