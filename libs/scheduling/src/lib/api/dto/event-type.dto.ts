import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsSlug, PageQuery, QueryBoolean, OptionalNotNull } from '@almanac/shared';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { EVENT_TYPE_MAX_DURATION, EVENT_TYPE_MIN_DURATION, HEX_COLOR_PATTERN } from '../../domain/event-type';
import { LOCATION_TYPES, LocationType } from '../../domain/location-type';
import { NotBlank } from './validators';

const COLOR_MESSAGE = 'must be a hex color #RGB or #RRGGBB';

export class CreateEventTypeDto {
  @ApiProperty({ example: '30-minute intro call', maxLength: 300 })
  @IsString()
  @NotBlank()
  @MaxLength(300)
  readonly title!: string;

  @ApiProperty({ example: 30, minimum: 1, maximum: 1440, description: 'Minutes (integer)' })
  @IsInt()
  @Min(EVENT_TYPE_MIN_DURATION)
  @Max(EVENT_TYPE_MAX_DURATION)
  readonly duration!: number;

  @ApiPropertyOptional({
    example: '30-minute-intro-call',
    description:
      'Generated from the title when absent (made unique with -2, -3…); a supplied slug that is taken: 409 slug_taken',
  })
  // Absent means "generate one"; null is refused (it used to reach the insert and fail there with a 500).
  @OptionalNotNull()
  @IsSlug()
  readonly slug?: string;

  @ApiPropertyOptional({ example: 'A first conversation.', maxLength: 5000, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  readonly description?: string | null;

  @ApiPropertyOptional({ enum: LOCATION_TYPES, default: 'video' })
  @IsOptional()
  @IsIn(LOCATION_TYPES)
  readonly location_type?: LocationType;

  @ApiPropertyOptional({ example: 'Room 4, second floor', maxLength: 5000, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  readonly location_details?: string | null;

  @ApiPropertyOptional({ example: '#3b82f6', description: '#RGB or #RRGGBB', nullable: true, type: String })
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_PATTERN, { message: COLOR_MESSAGE })
  readonly color?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  readonly requires_approval?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  readonly is_active?: boolean;
}

/** Every create field; `description`, `location_details` and `color` may be set to null to clear them. */
export class UpdateEventTypeDto {
  @ApiPropertyOptional({ example: '45-minute intro call', maxLength: 300 })
  @OptionalNotNull()
  @IsString()
  @NotBlank()
  @MaxLength(300)
  readonly title?: string;

  @ApiPropertyOptional({ example: 45, minimum: 1, maximum: 1440 })
  @OptionalNotNull()
  @IsInt()
  @Min(EVENT_TYPE_MIN_DURATION)
  @Max(EVENT_TYPE_MAX_DURATION)
  readonly duration?: number;

  @ApiPropertyOptional({
    example: 'intro-call',
    description: 'A taken slug: 409 slug_taken. Changing the title keeps the slug.',
  })
  @OptionalNotNull()
  @IsSlug()
  readonly slug?: string;

  @ApiPropertyOptional({ maxLength: 5000, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  readonly description?: string | null;

  @ApiPropertyOptional({ enum: LOCATION_TYPES })
  @OptionalNotNull()
  @IsIn(LOCATION_TYPES)
  readonly location_type?: LocationType;

  @ApiPropertyOptional({ maxLength: 5000, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  readonly location_details?: string | null;

  @ApiPropertyOptional({ example: '#f59e0b', nullable: true, type: String })
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_PATTERN, { message: COLOR_MESSAGE })
  readonly color?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  readonly requires_approval?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  readonly is_active?: boolean;
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
