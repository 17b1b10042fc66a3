import { Injectable } from '@nestjs/common';
import { hasAvailability } from '../domain/availability';
import {
  Candidate,
  CandidateConflictReason,
  CandidateCounter,
  CandidateRules,
  judgeCandidates,
} from '../domain/booking-candidates';
import type { EventTypeRef, ScheduleRef } from '../domain/booking';
import { BlockedTimeRepository } from '../infrastructure/blocked-time.repository';
import { BookingLimits, limitTargetOf } from './booking-limits.service';

/** Where the candidates would be booked, and with which event type. */
export interface CandidateContext {
  readonly organizationId: string;
  readonly scheduleId: string;
  readonly schedule: ScheduleRef;
  readonly eventType: (EventTypeRef & { id: string }) | null;
  readonly now: Date;
}

const MINUTE = 60_000;

/**
 * Checks many candidate times for new bookings against every rule a single booking meets, with a
 * fixed number of statements however many candidates there are (each statement takes all of them,
 * e.g. through unnest): the overlap with the time other bookings, unexpired reservations and published events hold, and, for an event type on a
 * schedule that has availability, the schedule's windows, notice and window of days; and every
 * limit (`BookingLimits`: the event type's where they apply, the schedule's always). Runs inside
 * the write's unit of work (`Transactions.run`): the limits' locks are held until it ends, so
 * concurrent writes for the last places take turns. A rule that is added adds its own set-based statement
 * here: a refusal per candidate (as the time reservations and events hold), or a counter (limits,
 * which count the candidates kept before).
 */
@Injectable()
export class BookingCandidatesCheck {
  constructor(
    private readonly blockedTimes: BlockedTimeRepository,
    private readonly limits: BookingLimits,
  ) {}

  /** The reason each candidate cannot be booked, or null where it fits, in the candidates' order. */
  async check(
    context: CandidateContext,
    candidates: readonly Candidate[],
  ): Promise<(CandidateConflictReason | null)[]> {
    const { organizationId, scheduleId, schedule, eventType } = context;
    const againstAvailability = eventType !== null && hasAvailability(schedule.availability);
    const rules: CandidateRules = {
      availability: schedule.availability,
      scheduleTimeZone: schedule.timezone,
      rules: againstAvailability ? eventType.rules : null,
      bufferBefore: eventType?.rules.bufferBefore ?? 0,
      bufferAfter: eventType?.rules.bufferAfter ?? 0,
      now: context.now.getTime(),
    };

    // Every limit (the event type's where it applies, the schedule's always): the locks of every
    // period the candidates count in, then one count of them all.
    const target = limitTargetOf(organizationId, scheduleId, schedule, eventType);
    const times = candidates.map((c) => ({ start: c.start.getTime(), end: c.end.getTime() }));
    await this.limits.lock(target, times);
    const counters: CandidateCounter[] = [await this.limits.counter(target, times)];
    // What else holds each candidate's time (bookings, unexpired reservations, published events):
    // one read of the table whose exclusion constraint the insert will meet.
    const held = await this.blockedTimes.kindsHolding(
      organizationId,
      scheduleId,
      candidates.map((c) => ({
        from: new Date(c.start.getTime() - rules.bufferBefore * MINUTE),
        to: new Date(c.end.getTime() + rules.bufferAfter * MINUTE),
      })),
      context.now,
    );
    const overlapsBooking = held.map((h) => h.booking);
    const refusals = [held.map((h): CandidateConflictReason | null => (h.reservation ? 'reserved' : h.event ? 'event' : null))];
    return judgeCandidates(rules, candidates, { overlapsBooking, refusals, counters });
  }
}
