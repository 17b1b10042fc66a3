import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOrDateTime, IsIanaTimeZone, QueryBoolean } from '@almanac/shared';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { START_TIME_PATTERN } from '../../domain/availability';
import { LIMIT_REASONS } from '../../domain/booking-limits';
import { CandidateRejection } from '../../domain/slots';

/** The range of a slots query and the time zone its answer is told in. */
export class SlotRangeQuery {
  @ApiPropertyOptional({
    example: '2026-12-01',
    description: 'A date (its 00:00 in `timezone`) or a date-time with a zone. Default: now.',
  })
  @IsOptional()
  @IsDateOrDateTime()
  readonly start?: string;

  @ApiPropertyOptional({
    example: '2026-12-08',
    description:
      'A date (its 00:00 in `timezone`, excluded) or a date-time with a zone; after start and at most 62 days later. Default: start + 7 days.',
  })
  @IsOptional()
  @IsDateOrDateTime()
  readonly end?: string;

  @ApiPropertyOptional({
    example: 'Europe/Paris',
    description: 'IANA time zone of local_date, local_time and date-only start/end. Default: the schedule one.',
  })
  @IsOptional()
  @IsIanaTimeZone()
  readonly timezone?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'true: meta.unavailable lists every candidate start inside the windows and the range that is not offered, with its reason. The slots offered are the same either way. Default false',
  })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  readonly explain?: boolean;
}

const REJECTIONS: readonly CandidateRejection[] = ['minimum_notice', 'booking_window', 'booked', 'reserved', 'event', ...LIMIT_REASONS];

export class UnavailableSlotResponse {
  @ApiProperty({ format: 'date-time', example: '2026-12-01T09:00:00.000Z' })
  readonly start_time!: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T09:30:00.000Z' })
  readonly end_time!: string;
  @ApiProperty({
    enum: REJECTIONS,
    description:
      'The first that applies, in this order: minimum_notice, booking_window (too far ahead), booked (a PENDING or CONFIRMED booking holds its blocked time, buffers on both sides counted), reserved (an unexpired reservation does), event (a published event of the schedule does), then the limits: daily_limit, weekly_limit, monthly_limit, duration_limit (of the event type) and schedule_limit (of the schedule), unexpired reservations counted like bookings',
  })
  readonly reason!: CandidateRejection;
  @ApiPropertyOptional({ format: 'uuid', description: 'booked: the earliest-starting booking holding the time' })
  readonly booking_id?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'reserved: the earliest-starting reservation holding the time' })
  readonly reservation_id?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'event: the earliest-starting published event holding the time' })
  readonly event_id?: string;
}

export class SlotQuery extends SlotRangeQuery {
  @ApiProperty({ format: 'uuid', description: 'The event type (duration, buffers, notice…); unknown: 404' })
  @IsString()
  readonly event_type_id!: string;

  @ApiProperty({ format: 'uuid', description: 'The schedule (availability, bookings); unknown: 404' })
  @IsString()
  readonly schedule_id!: string;
}

export class SlotResponse {
  @ApiProperty({ format: 'date-time', example: '2026-12-01T08:00:00.000Z' })
  readonly start_time!: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T08:30:00.000Z' })
  readonly end_time!: string;
  @ApiProperty({ format: 'date', example: '2026-12-01', description: 'Local date of the start in `timezone`' })
  readonly local_date!: string;
  @ApiProperty({ example: '09:00', pattern: START_TIME_PATTERN, description: 'Local time of the start in `timezone`' })
  readonly local_time!: string;
}

export class SlotListMeta {
  @ApiProperty({ type: 'integer', minimum: 0, example: 16, description: 'Slots in the range' })
  readonly total!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 16, description: 'Equal to total: every slot is returned at once' })
  readonly limit!: number;
  @ApiProperty({ type: 'integer', example: 0, enum: [0] })
  readonly offset!: number;
  @ApiProperty({ example: false, enum: [false] })
  readonly hasMore!: boolean;
  @ApiProperty({ example: 'Europe/Paris', description: 'The time zone of local_date and local_time' })
  readonly timezone!: string;
  @ApiPropertyOptional({
    type: [UnavailableSlotResponse],
    description: 'With explain=true only: every candidate start that is not offered, sorted by start',
  })
  readonly unavailable?: UnavailableSlotResponse[];
}
