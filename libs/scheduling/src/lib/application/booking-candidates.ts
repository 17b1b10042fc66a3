import { Injectable } from '@nestjs/common';
import { hasAvailability, isoDateOfEpochDay } from '../domain/availability';
import {
  Candidate,
  CandidateConflictReason,
  CandidateCounter,
  calendarOf,
  CandidateRules,
  dailyLimitCounter,
  judgeCandidates,
} from '../domain/booking-candidates';
import type { EventTypeRef, ScheduleRef } from '../domain/booking';
import { BookingRepository } from '../infrastructure/booking.repository';

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
 * e.g. through unnest): the overlap with other bookings' blocked times, and, for an event type on a
 * schedule that has availability, the schedule's windows, notice, window of days and daily limit.
 * Runs inside the write's unit of work (`Transactions.run`): the daily limits' locks are held until it ends, so concurrent
 * writes for the last places take turns. A rule that is added adds its own set-based statement
 * here: a refusal per candidate (held time such as reservations or events), or a counter (limits,
 * which count the candidates kept before).
 */
@Injectable()
export class BookingCandidatesCheck {
  constructor(private readonly bookings: BookingRepository) {}

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

    const counters: CandidateCounter[] = [];
    if (againstAvailability && eventType.rules.maxBookingsPerDay !== null) {
      const calendar = calendarOf(rules, candidates);
      const days = candidates.map((c) => calendar.epochDayOf(c.start.getTime()));
      const dates = days.map(isoDateOfEpochDay);
      await this.bookings.lockDailyLimits(organizationId, scheduleId, eventType.id, dates);
      const bounds = days.map((day) => calendar.dayBounds(day));
      const counts = await this.bookings.countSameDay(
        organizationId,
        scheduleId,
        eventType.id,
        bounds.map((b) => ({ from: new Date(b.start), to: new Date(b.end) })),
        null,
      );
      counters.push(
        dailyLimitCounter(
          eventType.rules.maxBookingsPerDay,
          dates.map((date, i) => ({ date, count: counts[i]! })),
        ),
      );
    }
    const overlapsBooking = await this.bookings.overlapsBookings(
      organizationId,
      scheduleId,
      candidates.map((c) => ({
        from: new Date(c.start.getTime() - rules.bufferBefore * MINUTE),
        to: new Date(c.end.getTime() + rules.bufferAfter * MINUTE),
      })),
    );
    return judgeCandidates(rules, candidates, { overlapsBooking, counters });
  }
}
