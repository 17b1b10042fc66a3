import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateTimeWithZone, IsSupportedInstant } from '@almanac/shared';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  DEFAULT_RESERVATION_TTL_MINUTES,
  MAX_RESERVATION_TTL_MINUTES,
  MIN_RESERVATION_TTL_MINUTES,
} from '../../domain/reservation';

export class CreateReservationDto {
  @ApiProperty({ format: 'uuid', description: 'An event type of this organization (else 422 invalid_reference)' })
  @IsString()
  readonly event_type_id!: string;

  @ApiProperty({ format: 'uuid', description: 'A schedule of this organization (else 422 invalid_reference)' })
  @IsString()
  readonly schedule_id!: string;

  @ApiProperty({
    example: '2026-12-01T09:00:00+01:00',
    format: 'date-time',
    description: 'ISO 8601 with Z or an offset: the start of a slot GET /api/v1/slots offers now (else 409 slot_unavailable with its reason)',
  })
  @IsDateTimeWithZone()
  @IsSupportedInstant()
  readonly start_time!: string;

  @ApiPropertyOptional({
    example: DEFAULT_RESERVATION_TTL_MINUTES,
    minimum: MIN_RESERVATION_TTL_MINUTES,
    maximum: MAX_RESERVATION_TTL_MINUTES,
    description: `Minutes the slot is held (integer); default ${DEFAULT_RESERVATION_TTL_MINUTES}`,
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_RESERVATION_TTL_MINUTES)
  @Max(MAX_RESERVATION_TTL_MINUTES)
  readonly ttl_minutes?: number;
}

export class ReservationResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ format: 'uuid' })
  readonly event_type_id!: string;
  @ApiProperty({ format: 'uuid' })
  readonly schedule_id!: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T08:00:00.000Z' })
  readonly start_time!: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T08:30:00.000Z', description: "start_time + the event type's duration" })
  readonly end_time!: string;
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-21T10:10:00.000Z',
    description: 'The hold ends at this instant exactly: from then on the time is free and the reservation answers 404',
  })
  readonly expires_at!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  readonly created_at!: string;
}

export class ReservationDeletedResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ example: true, enum: [true] })
  readonly deleted!: boolean;
}
