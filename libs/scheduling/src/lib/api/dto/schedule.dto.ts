import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { BodyField, defaultedOnCreate, IsIanaTimeZone, OptionalNotNull, PatchOf, requiredOnCreate } from '@almanac/shared';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import {
  DateOverride,
  END_TIME_PATTERN,
  MAX_DATE_OVERRIDES,
  MAX_OVERRIDE_INTERVALS,
  MAX_WEEKLY_RULES,
  START_TIME_PATTERN,
  WeeklyRule,
  WEEKDAYS,
  Weekday,
} from '../../domain/availability';
import { MAX_BOOKED_MINUTES_PER_PERIOD, MAX_BOOKINGS_PER_PERIOD } from '../../domain/booking-limits';
import { IsDateOverrides, IsWeeklyRules, limitOverPeriods, NotBlank } from './validators';

export class TimeIntervalDoc {
  @ApiProperty({ example: '09:00', pattern: START_TIME_PATTERN, description: 'Wall-clock time in the schedule time zone' })
  readonly start!: string;
  @ApiProperty({ example: '17:00', pattern: END_TIME_PATTERN, description: 'After start; 24:00 is the end of the day' })
  readonly end!: string;
}

export class WeeklyRuleDoc extends TimeIntervalDoc {
  @ApiProperty({ enum: WEEKDAYS, isArray: true, minItems: 1, maxItems: 7, uniqueItems: true, example: ['mon', 'tue'] })
  readonly days!: Weekday[];
}

export class DateOverrideDoc {
  @ApiProperty({ format: 'date', example: '2026-12-24', description: 'A local date of the schedule' })
  readonly date!: string;
  @ApiProperty({
    type: [TimeIntervalDoc],
    maxItems: MAX_OVERRIDE_INTERVALS,
    description: 'Replace the weekly rules on that date (they may overlap: their union counts); [] closes the day',
  })
  readonly intervals!: TimeIntervalDoc[];
}

const AVAILABILITY_DESCRIPTION =
  'Weekly rules in the schedule time zone (rules of one day may overlap: their union counts); null (default): open around the clock except on overridden dates. A wall-clock time in a DST gap moves forward by the gap; one that exists twice takes the earlier instant.';
const AVAILABILITY_DOC: ApiPropertyOptions = {
  type: [WeeklyRuleDoc],
  nullable: true,
  maxItems: MAX_WEEKLY_RULES,
  description: AVAILABILITY_DESCRIPTION,
};

const OVERRIDES_DESCRIPTION = 'Per-date intervals replacing the weekly rules; dates distinct. Default [].';
const OVERRIDES_DOC: ApiPropertyOptions = {
  type: [DateOverrideDoc],
  maxItems: MAX_DATE_OVERRIDES,
  description: OVERRIDES_DESCRIPTION,
};

const LIMIT_SCOPE =
  'PENDING/CONFIRMED bookings of this schedule, whatever their event type (imported ones included), by their start in the schedule time zone';
const DAY_COUNT = `Bookings per local date of all ${LIMIT_SCOPE}; null: no limit`;
const WEEK_COUNT = `Bookings per week (Monday 00:00 to Monday 00:00) of all ${LIMIT_SCOPE}; null: no limit`;
const DAY_MINUTES = `Booked minutes (durations, without buffers) per local date of all ${LIMIT_SCOPE}; null: no limit`;
const WEEK_MINUTES = `Booked minutes (durations, without buffers) per week (from Monday) of all ${LIMIT_SCOPE}; null: no limit`;

/** The body of a create; each field's rules are written here once, for the PATCH too. */
export class CreateScheduleDto {
  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ example: 'Dr. Rivera – consultations', maxLength: 300 })
      : ApiPropertyOptional({ example: 'Dr. Rivera – follow-ups', maxLength: 300 }),
    ...requiredOnCreate(mode),
    IsString(),
    NotBlank(),
    MaxLength(300),
  ])
  readonly name!: string;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create'
        ? { example: 'Europe/Paris', default: 'UTC', description: 'IANA time zone name' }
        : { example: 'America/New_York', description: 'IANA time zone name' },
    ),
    ...defaultedOnCreate(mode),
    IsIanaTimeZone(),
  ])
  readonly timezone?: string;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create' ? { ...AVAILABILITY_DOC, default: null } : { ...AVAILABILITY_DOC, description: `Replaces the rules. ${AVAILABILITY_DESCRIPTION}` },
    ),
    IsOptional(),
    IsWeeklyRules(),
  ])
  readonly availability?: WeeklyRule[] | null;

  @BodyField((mode) => [
    ApiPropertyOptional(
      mode === 'create' ? { ...OVERRIDES_DOC, default: [] } : { ...OVERRIDES_DOC, description: `Replaces the overrides. ${OVERRIDES_DESCRIPTION}` },
    ),
    OptionalNotNull(),
    IsDateOverrides(),
  ])
  readonly date_overrides?: DateOverride[];

  @BodyField(limitOverPeriods(MAX_BOOKINGS_PER_PERIOD, DAY_COUNT))
  readonly max_bookings_per_day?: number | null;

  @BodyField(limitOverPeriods(MAX_BOOKINGS_PER_PERIOD, WEEK_COUNT))
  readonly max_bookings_per_week?: number | null;

  @BodyField(limitOverPeriods(MAX_BOOKED_MINUTES_PER_PERIOD, DAY_MINUTES))
  readonly max_booked_minutes_per_day?: number | null;

  @BodyField(limitOverPeriods(MAX_BOOKED_MINUTES_PER_PERIOD, WEEK_MINUTES))
  readonly max_booked_minutes_per_week?: number | null;
}

export class UpdateScheduleDto {
  @PatchOf(CreateScheduleDto) readonly name?: string;
  @PatchOf(CreateScheduleDto) readonly timezone?: string;
  @PatchOf(CreateScheduleDto) readonly availability?: WeeklyRule[] | null;
  @PatchOf(CreateScheduleDto) readonly date_overrides?: DateOverride[];
  @PatchOf(CreateScheduleDto) readonly max_bookings_per_day?: number | null;
  @PatchOf(CreateScheduleDto) readonly max_bookings_per_week?: number | null;
  @PatchOf(CreateScheduleDto) readonly max_booked_minutes_per_day?: number | null;
  @PatchOf(CreateScheduleDto) readonly max_booked_minutes_per_week?: number | null;
}

export class ScheduleResponse {
  @ApiProperty({ format: 'uuid', example: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' })
  readonly id!: string;
  @ApiProperty({ example: 'Dr. Rivera – consultations' })
  readonly name!: string;
  @ApiProperty({ example: 'Europe/Paris', description: 'IANA time zone name; default UTC' })
  readonly timezone!: string;
  @ApiProperty(AVAILABILITY_DOC)
  readonly availability!: readonly WeeklyRule[] | null;
  @ApiProperty(OVERRIDES_DOC)
  readonly date_overrides!: readonly DateOverride[];
  @ApiProperty({ type: 'integer', nullable: true, example: null, minimum: 1, maximum: MAX_BOOKINGS_PER_PERIOD, description: DAY_COUNT })
  readonly max_bookings_per_day!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, minimum: 1, maximum: MAX_BOOKINGS_PER_PERIOD, description: WEEK_COUNT })
  readonly max_bookings_per_week!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 480, minimum: 1, maximum: MAX_BOOKED_MINUTES_PER_PERIOD, description: DAY_MINUTES })
  readonly max_booked_minutes_per_day!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, minimum: 1, maximum: MAX_BOOKED_MINUTES_PER_PERIOD, description: WEEK_MINUTES })
  readonly max_booked_minutes_per_week!: number | null;
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
