import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIanaTimeZone, OptionalNotNull } from '@almanac/shared';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { NotBlank } from './validators';

export class CreateScheduleDto {
  @ApiProperty({ example: 'Dr. Rivera – consultations', maxLength: 300 })
  @IsString()
  @NotBlank()
  @MaxLength(300)
  readonly name!: string;

  @ApiPropertyOptional({ example: 'Europe/Paris', default: 'UTC', description: 'IANA time zone name' })
  @IsOptional()
  @IsIanaTimeZone()
  readonly timezone?: string;
}

export class UpdateScheduleDto {
  @ApiPropertyOptional({ example: 'Dr. Rivera – follow-ups', maxLength: 300 })
  @OptionalNotNull()
  @IsString()
  @NotBlank()
  @MaxLength(300)
  readonly name?: string;

  @ApiPropertyOptional({ example: 'America/New_York', description: 'IANA time zone name' })
  @OptionalNotNull()
  @IsIanaTimeZone()
  readonly timezone?: string;
}

export class ScheduleResponse {
  @ApiProperty({ format: 'uuid', example: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' })
  readonly id!: string;
  @ApiProperty({ example: 'Dr. Rivera – consultations' })
  readonly name!: string;
  @ApiProperty({ example: 'Europe/Paris', description: 'IANA time zone name; default UTC' })
  readonly timezone!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  readonly created_at!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  readonly updated_at!: string;
}

export class ScheduleDeletedResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;
  @ApiProperty({ example: true, enum: [true] })
  readonly deleted!: boolean;
}
