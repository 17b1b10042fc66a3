import { Injectable } from '@nestjs/common';
import { Clock, isCalendarDate, isUuid, NotFoundError, ValidationFailedError } from '@almanac/shared';
import { Temporal } from 'temporal-polyfill';
import { localDayBounds } from '../domain/availability';
import type { BlockingRecord } from '../domain/blocked-time';
import { LimitReason, localDayOf, zoneForPeriods } from '../domain/booking-limits';
import type { BookingRules } from '../domain/booking-rules';
import type { ScheduleRef } from '../domain/booking';
import {
  availableSlots,
  BusyTimes,
  CandidateRejection,
  DEFAULT_SLOT_RANGE_DAYS,
  MAX_SLOT_RANGE_DAYS,
  Slot,
  SlotQuery,
} from '../domain/slots';
import { BlockedTimeRepository } from '../infrastructure/blocked-time.repository';
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
  /** List every candidate that is not offered, with its reason. */
  explain?: boolean;
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
    private readonly blockedTimes: BlockedTimeRepository,
    private readonly clock: Clock,
    private readonly limits: BookingLimits,
  ) {}

  /** Every slot of the range (docs/contract/scheduling.md), sorted by start, and the time zone they are told in. */
  async list(
    organizationId: string,
    command: SlotsCommand,
  ): Promise<{ slots: Slot[]; timezone: string; unavailable?: UnavailableSlot[] }> {
    // An id that is not a UUID names no record, like an unknown one.
    if (!isUuid(command.scheduleId)) throw new NotFoundError('Schedule');
    if (!isUuid(command.eventTypeId)) throw new NotFoundError('Event type');
    const refs = await this.bookings.references(organizationId, command.scheduleId, command.eventTypeId);
    if (!refs.schedule.found) throw new NotFoundError('Schedule');
    if (!refs.eventType?.found) throw new NotFoundError('Event type');

    const explain = command.explain === true;
    const timezone = command.timezone ?? refs.schedule.timezone;
    const now = this.clock.now().getTime();
    const from = command.start === undefined ? now : instantOf(command.start, timezone);
    const to = command.end === undefined ? addDays(from, DEFAULT_SLOT_RANGE_DAYS, timezone) : instantOf(command.end, timezone);
    if (to <= from) throw new ValidationFailedError([{ field: 'end', message: 'must be after start' }]);
    if (to > addDays(from, MAX_SLOT_RANGE_DAYS, timezone)) {
      throw new ValidationFailedError([{ field: 'end', message: `must be at most ${MAX_SLOT_RANGE_DAYS} days after start` }]);
    }

    const rules = refs.eventType.rules;
    const [held, limitOn] = await Promise.all([
      this.heldTimes(organizationId, command.scheduleId, refs.schedule, rules, from, to, now, explain, command.exceptBookingId),
      this.limitsOn(organizationId, command, refs.schedule, rules, from, to),
    ]);
    const query: SlotQuery = {
      availability: refs.schedule.availability,
      scheduleTimeZone: refs.schedule.timezone,
      timeZone: timezone,
      rules,
      from,
      to,
      now,
      busy: held.busy,
      limitOn,
    };
    if (!explain) return { slots: availableSlots(query), timezone };
    const unavailable: UnavailableSlot[] = [];
    const slots = availableSlots(query, (r) => unavailable.push({ ...r, holder: holderOf(held.ids, r.reason, r.busyIndex) }));
    unavailable.sort((a, b) => a.start - b.start);
    return { slots, timezone, unavailable };
  }

  /**
   * Everything that holds the schedule's time around `[from, to)` as the slots engine reads it, at
   * `now`: bookings' blocked times, unexpired reservations', published events'; with `withIds`,
   * the ids of what holds each span (to name it). `exceptBookingId`: a booking whose own time does
   * not count (the slots its attendee may move it to). Which records can matter: any whose blocked
   * time meets a candidate's (the range widened by the candidate's reach). Limits are counted apart
   * (`limitsOn`).
   */
  async heldTimes(
    organizationId: string,
    scheduleId: string,
    schedule: ScheduleRef,
    rules: BookingRules,
    from: number,
    to: number,
    now: number,
    withIds: boolean,
    exceptBookingId?: string,
  ): Promise<{ busy: BusyTimes; ids: HeldIds }> {
    const reachFrom = new Date(from - rules.bufferBefore * 60_000);
    const reachTo = new Date(to + (rules.duration + rules.bufferAfter) * 60_000);
    const [bookings, held] = await Promise.all([
      this.bookings.busy(organizationId, scheduleId, reachFrom, reachTo, exceptBookingId),
      this.blockedTimes.held(organizationId, scheduleId, reachFrom, reachTo, new Date(now), withIds, exceptBookingId),
    ]);
    const busy: BusyTimes = {
      // Named bookings come from the blocked times (the same spans, with their ids).
      blockedStarts: withIds ? held.booking.starts : bookings.blockedStarts,
      blockedEnds: withIds ? held.booking.ends : bookings.blockedEnds,
      reserved: held.reservation,
      events: held.event,
    };
    return { busy, ids: { booked: held.booking.ids, reserved: held.reservation.ids, event: held.event.ids } };
  }

  /**
   * The first limit a slot starting on each local date of the range would break (the event type's,
   * whatever the schedule's availability, and the schedule's), from one query counting every period
   * that holds one of those dates (bookings and unexpired reservations); undefined when there is no
   * limit. A reservation reads it under the limits' locks, in its transaction.
   */
  async limitsOn(
    organizationId: string,
    { scheduleId, eventTypeId, exceptBookingId }: SlotsCommand,
    schedule: ScheduleRef,
    rules: BookingRules,
    from: number,
    to: number,
  ): Promise<((localDay: number) => LimitReason | null) | undefined> {
    const target = slotLimitTarget(organizationId, scheduleId, eventTypeId, schedule, rules);
    if (!this.limits.applies(target)) return undefined;
    const zone = zoneForPeriods(schedule.timezone, from, to);
    // The dates whose windows the slots look at: a day before the range's first to a day after its last.
    const days: number[] = [];
    for (let day = localDayOf(zone, from) - 1; day <= localDayOf(zone, to) + 1; day++) days.push(day);
    const ledger = await this.limits.ledger(target, zone, days, exceptBookingId === undefined ? [] : [exceptBookingId]);
    return (day) => ledger.reasonFor(day, rules.duration);
  }
}

/**
 * The limits a slot of the event type meets: the type's whatever the schedule's availability, and
 * the schedule's (a superset of a booking's at that time, so a reservation locking them takes every
 * lock a booking there would).
 */
export function slotLimitTarget(
  organizationId: string,
  scheduleId: string,
  eventTypeId: string,
  schedule: ScheduleRef,
  rules: BookingRules,
): LimitTarget {
  return { organizationId, scheduleId, eventTypeId, timeZone: schedule.timezone, limits: { eventType: rules, schedule: schedule.limits } };
}

/** Ids of what holds each blocked span, per reason, in the order of BusyTimes' lists. */
export interface HeldIds {
  readonly booked: readonly string[];
  readonly reserved: readonly string[];
  readonly event: readonly string[];
}

const KIND_OF_REASON = { booked: 'booking', reserved: 'reservation', event: 'event' } as const;

/** The record a rejection names: for `booked`, `reserved` and `event`, the one at its index. */
export function holderOf(ids: HeldIds, reason: string, index: number | undefined): BlockingRecord | undefined {
  if (index === undefined || !(reason in KIND_OF_REASON)) return undefined;
  const kind = KIND_OF_REASON[reason as keyof typeof KIND_OF_REASON];
  const id = ids[reason as keyof HeldIds][index];
  return id === undefined ? undefined : { kind, id };
}

/** A candidate `explain` lists: its time, why it was not offered, and what holds it. */
export interface UnavailableSlot {
  readonly start: number;
  readonly end: number;
  readonly reason: CandidateRejection;
  readonly holder?: BlockingRecord;
}
