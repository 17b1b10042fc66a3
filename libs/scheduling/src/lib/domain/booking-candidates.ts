import { Availability, ScheduleCalendar } from './availability';
import { LIMIT_REASONS } from './booking-limits';
import type { BookingRules } from './booking-rules';
import { bookingMisfit, SlotUnavailableReason } from './slots';

/**
 * Judging many candidate times for new bookings at once (the occurrences of a series): every rule a
 * single booking meets, from facts the database gathered for all of them together. Plain TypeScript.
 */

/** Why a candidate cannot be booked: it overlaps a booking, or a reason of `slot_unavailable`. */
export type CandidateConflictReason = 'booking_overlap' | SlotUnavailableReason;

/**
 * When several rules refuse one time, the one named: what the time itself breaks first (notice,
 * window of days, availability), then what other records hold (an overlapping booking, an unexpired reservation, a published event), then the
 * limits in their own order (the order a single booking's refusal follows). A rule that plugs in
 * places its reasons here.
 */
export const CANDIDATE_REASON_ORDER: readonly CandidateConflictReason[] = [
  'minimum_notice',
  'booking_window',
  'outside_availability',
  'booking_overlap',
  'reserved',
  'event',
  ...LIMIT_REASONS,
];

/** One candidate: its place among the others (0-based) and its time. */
export interface Candidate {
  readonly index: number;
  readonly start: Date;
  readonly end: Date;
}

export interface CandidateConflict extends Candidate {
  readonly reason: CandidateConflictReason;
}

/** A conflict as answers show it (a 409's `conflicts`, a series' `skipped`). */
export function conflictMember(c: CandidateConflict): {
  index: number;
  start_time: string;
  end_time: string;
  reason: CandidateConflictReason;
} {
  return { index: c.index, start_time: c.start.toISOString(), end_time: c.end.toISOString(), reason: c.reason };
}

/** The rules that apply to the candidates, all of one schedule and event type. */
export interface CandidateRules {
  readonly availability: Availability;
  readonly scheduleTimeZone: string;
  /**
   * The event type's rules when the bookings are made with one on a schedule that has availability;
   * null: the times are checked for overlap only, as a single booking's would be.
   */
  readonly rules: BookingRules | null;
  /** Minutes kept free around each candidate (its blocked time, as the bookings will keep it). */
  readonly bufferBefore: number;
  readonly bufferAfter: number;
  readonly now: number;
}

/**
 * A rule that counts what is booked (a limit): asked about the candidates in order, and told of each
 * one that is kept, which then counts toward the next ones.
 */
export interface CandidateCounter {
  reasonFor(index: number): CandidateConflictReason | null;
  keep(index: number): void;
}

/** What the database knows of the candidates (lists in the candidates' order), read set-based. */
export interface CandidateFacts {
  /** Whether its blocked time overlaps that of a PENDING/CONFIRMED booking of the schedule. */
  readonly overlapsBooking: readonly boolean[];
  /** Refusals of rules that do not depend on the other candidates: per rule, a reason or null per candidate. */
  readonly refusals?: readonly (readonly (CandidateConflictReason | null)[])[];
  /** Rules that count the candidates kept before (limits). */
  readonly counters?: readonly CandidateCounter[];
}

const MINUTE = 60_000;

/**
 * The reason each candidate cannot be booked, or null where it fits, in the candidates' order. The
 * candidates are judged in order as if every earlier one that fits were booked already: they may
 * not overlap one another, and they count toward limits like other bookings.
 */
export function judgeCandidates(
  r: CandidateRules,
  candidates: readonly Candidate[],
  facts: CandidateFacts,
): (CandidateConflictReason | null)[] {
  const before = r.bufferBefore * MINUTE;
  const after = r.bufferAfter * MINUTE;
  const accepted: { from: number; to: number }[] = [];
  const counters = facts.counters ?? [];
  const calendar = r.rules === null ? undefined : calendarOf(r, candidates);
  return candidates.map((candidate, i) => {
    const start = candidate.start.getTime();
    const end = candidate.end.getTime();
    const from = start - before;
    const to = end + after;
    const reasons = new Set<CandidateConflictReason>();
    if (r.rules !== null) {
      // The time's own rules; limits are counters, with the earlier candidates.
      const misfit = bookingMisfit({
        availability: r.availability,
        scheduleTimeZone: r.scheduleTimeZone,
        rules: r.rules,
        start,
        end,
        now: r.now,
        calendar,
      });
      if (misfit) reasons.add(misfit);
    }
    if (facts.overlapsBooking[i] || accepted.some((a) => a.from < to && from < a.to)) reasons.add('booking_overlap');
    for (const refusals of facts.refusals ?? []) {
      const reason = refusals[i];
      if (reason) reasons.add(reason);
    }
    for (const counter of counters) {
      const reason = counter.reasonFor(i);
      if (reason) reasons.add(reason);
    }
    const reason = CANDIDATE_REASON_ORDER.find((known) => reasons.has(known)) ?? [...reasons][0] ?? null;
    if (reason === null) {
      accepted.push({ from, to });
      for (const counter of counters) counter.keep(i);
    }
    return reason;
  });
}

/** The schedule's calendar over every candidate (one reading of the zone for all of them). */
export function calendarOf(r: Pick<CandidateRules, 'availability' | 'scheduleTimeZone'>, candidates: readonly Candidate[]): ScheduleCalendar {
  const from = Math.min(...candidates.map((c) => c.start.getTime()));
  const to = Math.max(...candidates.map((c) => c.end.getTime()));
  return new ScheduleCalendar(r.availability, r.scheduleTimeZone, from, to);
}
