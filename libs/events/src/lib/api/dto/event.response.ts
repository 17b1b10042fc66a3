import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_STATUSES, EventStatus } from '../../domain/event-status';

/** The fields every event representation has. */
abstract class EventFieldsResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'Community meetup' }) readonly title!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Talks and pizza.' }) readonly description!: string | null;
  @ApiProperty({ format: 'date', example: '2026-12-01' }) readonly start_date!: string;
  @ApiProperty({ type: String, nullable: true, example: '18:30', description: 'HH:MM local time; null: the whole day' })
  readonly start_time!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '21:00', description: 'HH:MM local time; null: until the end of the day' })
  readonly end_time!: string | null;
  @ApiProperty({ example: 'Europe/Paris' }) readonly timezone!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Town hall, Room 2' }) readonly location!: string | null;
  @ApiProperty({ example: 19.99, description: 'Dollars, exact to the cent' }) readonly cost!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 50, description: 'null: unlimited' }) readonly slots!: number | null;
  @ApiProperty({ enum: EVENT_STATUSES, enumName: 'EventStatus' }) readonly status!: EventStatus;
  @ApiProperty({ type: String, nullable: true, example: 'main-site' }) readonly site_id!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The host's schedule; null: none" })
  readonly schedule_id!: string | null;
  @ApiProperty({ description: 'Full: new registrations join a waiting list' }) readonly waitlist_enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiProperty({ format: 'date-time' }) readonly updated_at!: string;
}

/** An event in a list: the counts appear only with `include_counts=true`. */
export class ListedEventResponse extends EventFieldsResponse {
  @ApiPropertyOptional({ type: 'integer', example: 12, description: 'Active registrations (with include_counts=true)' })
  readonly registration_count?: number;
  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 38, description: 'Free places, null when unlimited (with include_counts=true)' })
  readonly slots_remaining?: number | null;
  @ApiPropertyOptional({ type: 'integer', example: 3, description: 'Registrations on the waiting list (with include_counts=true)' })
  readonly waitlist_count?: number;
}

/** One event, always with its counts. */
export class EventResponse extends EventFieldsResponse {
  @ApiProperty({ type: 'integer', example: 12, description: 'Active registrations' })
  readonly registration_count!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 38, description: 'Free places; null when unlimited' })
  readonly slots_remaining!: number | null;
  @ApiProperty({ type: 'integer', example: 3, description: 'Registrations on the waiting list' })
  readonly waitlist_count!: number;
}

export class DeletedEventResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: true }) readonly deleted!: boolean;
}
