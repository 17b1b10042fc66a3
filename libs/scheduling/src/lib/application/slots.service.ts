import { Injectable } from '@nestjs/common';
import { Clock, isCalendarDate, isUuid, NotFoundError, ValidationFailedError } from '@almanac/shared';
import { Temporal } from 'temporal-polyfill';
import { localDayBounds } from '../domain/availability';
import { LimitReason, localDayOf, zoneForPeriods } from '../domain/booking-limits';
import type { BookingRules } from '../domain/booking-rules';
import { availableSlots, DEFAULT_SLOT_RANGE_DAYS, MAX_SLOT_RANGE_DAYS, Slot } from '../domain/slots';
import type { ScheduleRef } from '../domain/booking';
import { BookingRepository } from '../infrastructure/booking.repository';
import { BookingLimits, LimitTarget } from './booking-limits.service';

export interface SlotsCommand {
  eventTypeId: string;
  scheduleId: string;
  start?: string;
  end?: string;
  timezone?: string;
  /** A booking whose own time does not block, nor count toward limits (the slots its attendee may move it to). */
  exceptBookingId?: string;
}

/** A date is its 00:00 in the time zone; a date-time with a zone is its instant. */
function instantOf(value: string, timeZone: string): number {
  if (isCalendarDate(value)) return localDayBounds(Temporal.PlainDate.from(value), timeZone).start;
  return Date.parse(value);
}

function addDays(instant: number, days: number, timeZone: string): number {
  return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).add({ days }).epochMilliseconds;
}

@Injectable()
export class SlotsService {
  constructor(
    private readonly bookings: BookingRepository,
    private readonly clock: Clock,
    private readonly limits: BookingLimits,
  ) {}

  /** Every slot of the range (docs/contract/scheduling.md), sorted by start, and the time zone they are told in. */
  async list(organizationId: string, command: SlotsCommand): Promise<{ slots: Slot[]; timezone: string }> {
    // An id that is not a UUID names no record, like an unknown one.
    if (!isUuid(command.scheduleId)) throw new NotFoundError('Schedule');
    if (!isUuid(command.eventTypeId)) throw new NotFoundError('Event type');
    const refs = await this.bookings.references(organizationId, command.scheduleId, command.eventTypeId);
    if (!refs.schedule.found) throw new NotFoundError('Schedule');
    if (!refs.eventType?.found) throw new NotFoundError('Event type');

    const timezone = command.timezone ?? refs.schedule.timezone;
    const now = this.clock.now().getTime();
    const from = command.start === undefined ? now : instantOf(command.start, timezone);
    const to = command.end === undefined ? addDays(from, DEFAULT_SLOT_RANGE_DAYS, timezone) : instantOf(command.end, timezone);
    if (to <= from) throw new ValidationFailedError([{ field: 'end', message: 'must be after start' }]);
    if (to > addDays(from, MAX_SLOT_RANGE_DAYS, timezone)) {
      throw new ValidationFailedError([{ field: 'end', message: `must be at most ${MAX_SLOT_RANGE_DAYS} days after start` }]);
    }

    const rules = refs.eventType.rules;
    // Bookings whose blocked time meets a candidate's: the range widened by a candidate's reach.
    const [busy, limitOn] = await Promise.all([
      this.bookings.busy(
        organizationId,
        command.scheduleId,
        new Date(from - rules.bufferBefore * 60_000),
        new Date(to + (rules.duration + rules.bufferAfter) * 60_000),
        command.exceptBookingId,
      ),
      this.limitsOn(organizationId, command, refs.schedule, rules, from, to),
    ]);
    const slots = availableSlots({
      availability: refs.schedule.availability,
      scheduleTimeZone: refs.schedule.timezone,
      timeZone: timezone,
      rules,
      from,
      to,
      now,
      busy,
      limitOn,
    });
    return { slots, timezone };
  }

  /**
   * The first limit a slot starting on each local date of the range would break (the event type's,
   * whatever the schedule's availability, and the schedule's), from one query counting every period
   * that holds one of those dates; undefined when there is no limit.
   */
  private async limitsOn(
    organizationId: string,
    { scheduleId, eventTypeId, exceptBookingId }: SlotsCommand,
    schedule: ScheduleRef,
    rules: BookingRules,
    from: number,
    to: number,
  ): Promise<((localDay: number) => LimitReason | null) | undefined> {
    // The event type's limits apply to its slots whatever the schedule's availability.
    const target: LimitTarget = {
      organizationId,
      scheduleId,
      eventTypeId,
      timeZone: schedule.timezone,
      limits: { eventType: rules, schedule: schedule.limits },
    };
    if (!this.limits.applies(target)) return undefined;
    const zone = zoneForPeriods(schedule.timezone, from, to);
    // The dates whose windows the slots look at: a day before the range's first to a day after its last.
    const days: number[] = [];
    for (let day = localDayOf(zone, from) - 1; day <= localDayOf(zone, to) + 1; day++) days.push(day);
    const ledger = await this.limits.ledger(target, zone, days, exceptBookingId === undefined ? [] : [exceptBookingId]);
    return (day) => ledger.reasonFor(day, rules.duration);
  }
}
