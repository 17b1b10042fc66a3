import { Transactions } from '@almanac/shared';
import { Injectable } from '@nestjs/common';
import type { BlockingRecord, BlockKind } from '../domain/blocked-time';

/** Blocked times of one kind, as parallel lists: starts and ends in epoch milliseconds, and the records' ids. */
export interface HeldSpans {
  readonly starts: number[];
  readonly ends: number[];
  readonly ids: string[];
}

/** What holds a schedule's time in a range, by kind. */
export interface HeldTimes {
  readonly booking: HeldSpans;
  readonly reservation: HeldSpans;
  readonly event: HeldSpans;
}

/**
 * Reads of `schedule_blocked_times`, the one table (and exclusion constraint) holding all of a
 * schedule's taken time; triggers write it (see the migration SchedulingBlockedTimes). A
 * reservation's row counts only while `expires_at` is after the caller's now.
 */
@Injectable()
export class BlockedTimeRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * The record holding any of `[from, to)` on the schedule at `now`, other than `except`: a booking
   * before a reservation before an event, and of one kind the earliest-starting. Null when none.
   */
  async holder(
    organizationId: string,
    scheduleId: string,
    from: Date,
    to: Date,
    now: Date,
    except?: BlockingRecord,
  ): Promise<BlockingRecord | null> {
    const [row] = await this.db.rows<{ kind: BlockKind; source_id: string }>(
      `SELECT kind, source_id FROM schedule_blocked_times
        WHERE organization_id = $1 AND schedule_id = $2 AND during && tstzrange($3, $4, '[)')
          AND (expires_at IS NULL OR expires_at > $5)
          AND NOT (kind = $6 AND source_id = $7)
        ORDER BY array_position(ARRAY['booking', 'reservation', 'event'], kind), lower(during), source_id
        LIMIT 1`,
      [organizationId, scheduleId, from, to, now, except?.kind ?? '', except?.id ?? '00000000-0000-0000-0000-000000000000'],
    );
    return row ? { kind: row.kind, id: row.source_id } : null;
  }

  /**
   * For each span (a candidate's blocked time), which kinds of record hold part of it on the
   * schedule at `now` (reservations expired by then hold nothing): one statement, one probe of the
   * exclusion constraint's index per span, in the spans' order.
   */
  async kindsHolding(
    organizationId: string,
    scheduleId: string,
    spans: readonly { from: Date; to: Date }[],
    now: Date,
  ): Promise<Record<BlockKind, boolean>[]> {
    if (spans.length === 0) return [];
    const rows = await this.db.rows<Record<BlockKind, boolean>>(
      `SELECT coalesce(bool_or(b.kind = 'booking'), false) AS booking,
              coalesce(bool_or(b.kind = 'reservation'), false) AS reservation,
              coalesce(bool_or(b.kind = 'event'), false) AS event
         FROM unnest($3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY AS c(span_from, span_to, n)
         LEFT JOIN schedule_blocked_times b
           ON b.organization_id = $1 AND b.schedule_id = $2 AND b.during && tstzrange(c.span_from, c.span_to, '[)')
          AND (b.expires_at IS NULL OR b.expires_at > $5)
        GROUP BY c.n ORDER BY c.n`,
      [organizationId, scheduleId, spans.map((s) => s.from), spans.map((s) => s.to), now],
    );
    return rows.map((r) => ({ booking: r.booking, reservation: r.reservation, event: r.event }));
  }

  /**
   * What holds time of the schedule reaching into `[from, to)` at `now`: reservations and events
   * always, bookings too with `withBookings` (slots read bookings' times from bookings' own index,
   * and need them here only to name them). One row of JSON arrays, as slots read bookings.
   */
  async held(
    organizationId: string,
    scheduleId: string,
    from: Date,
    to: Date,
    now: Date,
    withBookings: boolean,
    exceptBookingId?: string,
  ): Promise<HeldTimes> {
    const [row] = await this.db.rows<{
      held: [BlockKind[] | null, string[] | null, number[] | null, number[] | null];
    }>(
      // The aggregates of one query see the rows in one order, so the lists stay parallel; the slots
      // engine sorts the spans itself.
      `SELECT json_build_array(
           array_agg(b.kind),
           array_agg(b.source_id),
           array_agg(round(date_part('epoch', lower(b.during)) * 1000)),
           array_agg(round(date_part('epoch', upper(b.during)) * 1000))) AS held
         FROM schedule_blocked_times b
        WHERE b.organization_id = $1 AND b.schedule_id = $2 AND b.during && tstzrange($3, $4, '[)')
          AND (b.expires_at IS NULL OR b.expires_at > $5) AND ($6 OR b.kind <> 'booking')
          AND NOT (b.kind = 'booking' AND b.source_id = $7)`,
      [organizationId, scheduleId, from, to, now, withBookings, exceptBookingId ?? '00000000-0000-0000-0000-000000000000'],
    );
    const [kinds, ids, starts, ends] = row!.held;
    const held: HeldTimes = {
      booking: { starts: [], ends: [], ids: [] },
      reservation: { starts: [], ends: [], ids: [] },
      event: { starts: [], ends: [], ids: [] },
    };
    (kinds ?? []).forEach((kind, i) => {
      const spans = held[kind];
      spans.starts.push(starts![i]!);
      spans.ends.push(ends![i]!);
      spans.ids.push(ids![i]!);
    });
    return held;
  }
}
