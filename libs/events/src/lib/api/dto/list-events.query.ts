import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOrDateTime, PageQuery, QueryBoolean } from '@almanac/shared';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SITE_ID_MAX_LENGTH } from '../../domain/event';
import { EVENT_STATUSES, EventStatus } from '../../domain/event-status';

export class ListEventsQuery extends PageQuery {
  @ApiPropertyOptional({ type: String, description: 'Only events of this site' })
  @IsOptional()
  @IsString()
  @MaxLength(SITE_ID_MAX_LENGTH)
  readonly site_id?: string;

  @ApiPropertyOptional({ enum: EVENT_STATUSES, enumName: 'EventStatus' })
  @IsOptional()
  @IsIn(EVENT_STATUSES, { message: `must be one of ${EVENT_STATUSES.join(', ')}` })
  readonly status?: EventStatus;

  @ApiPropertyOptional({ type: Boolean, description: 'true: only events that have not ended yet (false: no filter)' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  readonly upcoming?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'true: only events that have ended (false: no filter); not with upcoming=true' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  readonly past?: boolean;

  @ApiPropertyOptional({
    type: String,
    example: '2026-12-01',
    description: "Events whose start_date is on or after this date (YYYY-MM-DD; a date-time's own date is used)",
  })
  @IsOptional()
  @IsDateOrDateTime()
  readonly start_date?: string;

  @ApiPropertyOptional({
    type: String,
    example: '2026-12-31',
    description: "Events whose start_date is on or before this date (YYYY-MM-DD; a date-time's own date is used)",
  })
  @IsOptional()
  @IsDateOrDateTime()
  readonly end_date?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'Add registration_count, slots_remaining and waitlist_count to each event' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  readonly include_counts?: boolean;
}
