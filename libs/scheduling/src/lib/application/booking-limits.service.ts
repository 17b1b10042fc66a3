import { Injectable } from '@nestjs/common';
import { Clock } from '@almanac/shared';
import { hasAvailability, type ZoneOffsets } from '../domain/availability';
import {
  bookedMinutes,
  type EventTypeLimits,
  hasLimits,
  LimitLedger,
  LimitReason,
  limitLockKeys,
  LimitSet,
  localDayOf,
  periodSpan,
  periodsToCount,
  zoneForPeriods,
} from '../domain/booking-limits';
import type { ScheduleRef } from '../domain/booking';
import { BookingRepository } from '../infrastructure/booking.repository';

/** Whose limits a booking meets: its schedule (and time zone), and its event type when it has one. */
export interface LimitTarget {
  readonly organizationId: string;
  readonly scheduleId: string;
  readonly eventTypeId: string | null;
  readonly timeZone: string;
  readonly limits: LimitSet;
}

/** A time to check: a booking's (or an occurrence's) start and end, epoch milliseconds. */
export interface LimitedTime {
  readonly start: number;
  readonly end: number;
}

/** The limits' answer for times judged one by one (see `BookingLimits.counter`). */
export interface LimitCounter {
  reasonFor(index: number): LimitReason | null;
  keep(index: number): void;
}

/**
 * The limits a booking meets: the schedule's always (with or without an event type or
 * availability), the event type's when the booking is made with it on a schedule that has
 * availability (like its other rules).
 */
export function limitTargetOf(
  organizationId: string,
  scheduleId: string,
  schedule: ScheduleRef,
  eventType: { id: string; rules: EventTypeLimits } | null,
): LimitTarget {
  const typeApplies = eventType !== null && hasAvailability(schedule.availability);
  return {
    organizationId,
    scheduleId,
    eventTypeId: eventType?.id ?? null,
    timeZone: schedule.timezone,
    limits: { eventType: typeApplies ? eventType.rules : null, schedule: schedule.limits },
  };
}

/**
 * Limits over periods at write time, in the write's transaction (the ambient unit of work): `lock`
 * first (before anything is written), then the write, then `reasons`, which counts what the periods
 * hold in one query and names the first limit each time breaks. Concurrent writes for the last place of a limit take the
 * same lock, so they count one after another and exactly one wins.
 *
 * A series of bookings checks all its occurrences at once: one `lock` and one `counter` for all of
 * them, before inserting the ones that fit (each occurrence kept counts toward the next ones).
 */
@Injectable()
export class BookingLimits {
  constructor(
    private readonly bookings: BookingRepository,
    private readonly clock: Clock,
  ) {}

  /** Whether the target has any limit at all (without one, nothing needs a lock or a count). */
  applies(target: LimitTarget): boolean {
    return hasLimits(target.limits);
  }

  /** Takes, until the transaction ends, the locks of every period the times count against (none without limits). */
  async lock(target: LimitTarget, times: readonly LimitedTime[]): Promise<void> {
    if (!this.applies(target) || times.length === 0) return;
    const zone = this.zoneFor(target, times);
    const keys = limitLockKeys(
      target.limits,
      times.map((t) => localDayOf(zone, t.start)),
    );
    await this.bookings.lockLimitPeriods(target.organizationId, target.scheduleId, target.eventTypeId, keys);
  }

  /**
   * The first limit each time would break (null: it fits), in the order given: a time that fits
   * counts toward the ones after it. What is already booked is counted without `exceptIds` (the
   * booking being written, already in the table). Call under `lock`.
   */
  async reasons(
    target: LimitTarget,
    times: readonly LimitedTime[],
    exceptIds: readonly string[],
  ): Promise<(LimitReason | null)[]> {
    const counter = await this.counter(target, times, exceptIds);
    return times.map((_, i) => {
      const reason = counter.reasonFor(i);
      if (reason === null) counter.keep(i);
      return reason;
    });
  }

  /**
   * For a caller that judges times by other rules too (a series: overlaps, availability): one count
   * of every period the times start in, then `reasonFor(i)` asks about time i given what is booked
   * and what was kept, and `keep(i)` counts time i in once the caller decides to book it. Call under `lock`.
   */
  async counter(
    target: LimitTarget,
    times: readonly LimitedTime[],
    exceptIds: readonly string[] = [],
  ): Promise<LimitCounter> {
    if (!this.applies(target) || times.length === 0) return { reasonFor: () => null, keep: () => undefined };
    const zone = this.zoneFor(target, times);
    const days = times.map((t) => localDayOf(zone, t.start));
    const ledger = await this.ledger(target, zone, days, exceptIds);
    const minutes = (i: number) => bookedMinutes(times[i]!.start, times[i]!.end);
    return {
      reasonFor: (i) => ledger.reasonFor(days[i]!, minutes(i)),
      keep: (i) => ledger.add(days[i]!, minutes(i), target.eventTypeId !== null),
    };
  }

  /**
   * What every period holding one of these local dates already holds (one query, however many
   * periods and bookings; reservations unexpired now count like bookings), as the ledger that decides from it. Slots read it outside a transaction.
   */
  async ledger(
    target: LimitTarget,
    zone: ZoneOffsets,
    days: readonly number[],
    exceptIds: readonly string[] = [],
  ): Promise<LimitLedger> {
    const periods = periodsToCount(target.limits, days);
    const totals = await this.bookings.limitTotals(
      target.organizationId,
      target.scheduleId,
      target.eventTypeId,
      periods.map((p) => periodSpan(zone, p)),
      this.clock.now(),
      exceptIds,
    );
    return new LimitLedger(
      target.limits,
      periods.map((period, i) => ({ period, totals: totals[i]! })),
    );
  }

  private zoneFor(target: LimitTarget, times: readonly LimitedTime[]): ZoneOffsets {
    let from = Infinity;
    let to = -Infinity;
    for (const t of times) {
      from = Math.min(from, t.start);
      to = Math.max(to, t.start);
    }
    return zoneForPeriods(target.timeZone, from, to);
  }
}
