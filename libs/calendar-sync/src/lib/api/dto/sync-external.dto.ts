import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOrDateTime } from '@almanac/shared';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class SyncExternalBookingsDto {
  @ApiProperty({
    format: 'uuid',
    example: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a',
    description: 'Organization to sync for: the admin’s own (any other value: 403)',
  })
  @IsString()
  @MaxLength(100)
  readonly organizationId!: string;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z', description: 'ISO 8601 start of the range (default now); a date means 00:00 UTC' })
  @IsOptional()
  @IsString()
  @IsDateOrDateTime()
  readonly startDate?: string;

  @ApiPropertyOptional({ example: '2027-03-01T00:00:00Z', description: 'ISO 8601 end of the range (default start + 90 days; at most 366 days)' })
  @IsOptional()
  @IsString()
  @IsDateOrDateTime()
  readonly endDate?: string;
}

export class SkippedReasons {
  @ApiProperty({ type: 'integer', minimum: 0, example: 3, description: 'Already imported and unchanged' }) readonly duplicate!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'STATUS:CANCELLED in the feed' }) readonly cancelled!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'TRANSP:TRANSPARENT (shown as free)' }) readonly free!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'All-day (DATE values)' }) readonly all_day!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 0, description: 'Overlaps a PENDING or CONFIRMED booking' }) readonly conflict!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 0, description: 'Unreadable or impossible (no start, end before start)' }) readonly invalid!: number;
}

export class SyncExternalBookingsResponse {
  @ApiProperty({ example: true }) readonly success!: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, example: 12, description: 'Bookings imported' }) readonly synced!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 6, description: 'Occurrences not imported (sum of skipped_reasons)' }) readonly skipped!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'Imported bookings moved or changed to follow the feed' }) readonly updated!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'Imported bookings cancelled because they vanished or were cancelled in the feed' })
  readonly cancelled!: number;
  @ApiProperty({ type: SkippedReasons }) readonly skipped_reasons!: SkippedReasons;
}
