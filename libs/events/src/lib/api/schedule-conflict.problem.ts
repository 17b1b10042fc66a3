import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { Problem } from '@almanac/shared';
import { MAX_LISTED_CONFLICTS } from '../domain/event-errors';

/** One record that holds time a published event would take on its schedule: exactly one of the ids. */
export class ScheduleConflictEntry {
  @ApiPropertyOptional({ format: 'uuid', description: 'A PENDING or CONFIRMED booking of the schedule' })
  readonly booking_id?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'An unexpired reservation on the schedule' })
  readonly reservation_id?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Another published event on the schedule' })
  readonly event_id?: string;
  @ApiProperty({ format: 'date-time', description: "The record's own start (a booking's without its buffers)" })
  readonly start_time!: string;
  @ApiProperty({ format: 'date-time', description: "The record's own end" })
  readonly end_time!: string;
}

/** The problem of an event write's 409: `conflicts` for `schedule_conflict`. */
export class EventConflictProblem extends Problem {
  @ApiPropertyOptional({
    type: [ScheduleConflictEntry],
    maxItems: MAX_LISTED_CONFLICTS,
    description: `schedule_conflict only: what holds the time on the schedule, earliest first (at most ${MAX_LISTED_CONFLICTS})`,
  })
  readonly conflicts?: ScheduleConflictEntry[];
}

/** 409 of an event create or update: `schedule_conflict` with its `conflicts`, and the other codes the write can meet. */
export function ApiEventConflict(others: string): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(EventConflictProblem, ScheduleConflictEntry),
    ApiResponse({
      status: 409,
      description: `Conflict: schedule_conflict (publishing the event, or moving a published one, over bookings, unexpired reservations or published events that hold its schedule's time; conflicts lists them and nothing changes)${others}`,
      content: { 'application/problem+json': { schema: { $ref: getSchemaPath(EventConflictProblem) } } },
    }),
  );
}
