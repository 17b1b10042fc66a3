import type { DomainEvent } from '@almanac/shared/domain';
import type { ImportResult } from './sync-run';

/** What the calendar import announces through the outbox: a finished run, in the transaction of its bookings. */
export function calendarSynced(
  organizationId: string,
  scheduleId: string,
  range: { start: Date; end: Date },
  result: ImportResult,
  occurredAt: Date,
): DomainEvent {
  return {
    type: 'calendar.synced',
    organizationId,
    data: { schedule_id: scheduleId, start_date: range.start.toISOString(), end_date: range.end.toISOString(), ...result },
    occurredAt,
  };
}
