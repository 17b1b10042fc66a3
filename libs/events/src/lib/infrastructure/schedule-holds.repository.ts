import { Transactions } from '@almanac/shared';
import { Injectable } from '@nestjs/common';
import { MAX_LISTED_CONFLICTS, type ScheduleConflict } from '../domain/event-errors';

/**
 * What holds a schedule's time, read through the view scheduling declares for it (`schedule_holds`):
 * bookings, unexpired reservations and published events, each with its own times.
 */
@Injectable()
export class ScheduleHoldsRepository {
  constructor(private readonly db: Transactions) {}

  /** The holders of `[from, to)` on the schedule at `now`, other than the event itself, earliest first (at most MAX_LISTED_CONFLICTS). */
  async conflicts(organizationId: string, scheduleId: string, from: Date, to: Date, now: Date, eventId: string): Promise<ScheduleConflict[]> {
    const rows = await this.db.rows<{ kind: ScheduleConflict['kind']; id: string; start_time: Date; end_time: Date }>(
      `SELECT kind, id, start_time, end_time FROM schedule_holds
        WHERE organization_id = $1 AND schedule_id = $2 AND during && tstzrange($3, $4, '[)')
          AND (expires_at IS NULL OR expires_at > $5) AND NOT (kind = 'event' AND id = $6)
        ORDER BY start_time, id LIMIT ${MAX_LISTED_CONFLICTS}`,
      [organizationId, scheduleId, from, to, now, eventId],
    );
    return rows.map((r) => ({ kind: r.kind, id: r.id, startTime: r.start_time, endTime: r.end_time }));
  }
}
