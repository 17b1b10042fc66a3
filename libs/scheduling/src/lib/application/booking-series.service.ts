import { Injectable } from '@nestjs/common';
import { Clock, newId, NotFoundError, Outbox, Transactions } from '@almanac/shared';
import type { Booking } from '../domain/booking';
import type { CandidateConflict } from '../domain/booking-candidates';
import { BookingSeries, occurrencesOf, Recurrence, RecurrenceConflictMode } from '../domain/recurrence';
import { bookingChanged } from '../domain/scheduling-announcements';
import { BookingOverlapError, RecurrenceConflictError } from '../domain/scheduling-errors';
import { BookingSeriesRepository } from '../infrastructure/booking-series.repository';
import { BookingRepository } from '../infrastructure/booking.repository';
import { BookingCandidatesCheck } from './booking-candidates';
import { BookingsService, CreateBookingCommand, CreatedBooking } from './bookings.service';

/** A series just created: its bookings (each with its manage token, shown once), and the occurrences left out (skip mode). */
export interface CreatedSeries {
  readonly series: BookingSeries;
  readonly bookings: readonly CreatedBooking[];
  readonly skipped: readonly CandidateConflict[];
}

/**
 * How often a series is written again after another write took one of its times between the check
 * and the insert: each attempt sees that write and answers (or skips) it, so a second attempt
 * normally settles it.
 */
const SERIES_ATTEMPTS = 3;

@Injectable()
export class BookingSeriesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly bookingsService: BookingsService,
    private readonly bookings: BookingRepository,
    private readonly series: BookingSeriesRepository,
    private readonly candidates: BookingCandidatesCheck,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Creates every occurrence of the series, or none: each is checked with every rule a single
   * booking meets, all of them together with a fixed number of statements, and written by one
   * statement in the same transaction (one `booking.created` event each). Any occurrence that does
   * not fit: 409 `recurrence_conflict` naming all of them; with mode `skip` the others are created,
   * unless none fits. The exclusion constraint still decides overlaps: a concurrent write that took
   * a time after the check makes the insert fail whole, and the series is checked again.
   */
  async create(
    organizationId: string,
    command: CreateBookingCommand,
    recurrence: Recurrence,
    mode: RecurrenceConflictMode,
  ): Promise<CreatedSeries> {
    const resolved = await this.bookingsService.resolveCreate(organizationId, command);
    const timezone = command.timezone ?? resolved.schedule.timezone;
    const occurrences = occurrencesOf(command.startTime, command.endTime, timezone, recurrence);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactions.run(async () => {
          const now = this.clock.now();
          const reasons = await this.candidates.check(
            {
              organizationId,
              scheduleId: command.scheduleId,
              schedule: resolved.schedule,
              eventType: resolved.eventType,
              now,
            },
            occurrences,
          );
          const conflicts: CandidateConflict[] = [];
          reasons.forEach((reason, i) => {
            if (reason !== null) conflicts.push({ ...occurrences[i]!, reason });
          });
          if (conflicts.length > 0 && (mode === 'reject' || conflicts.length === occurrences.length)) {
            throw new RecurrenceConflictError(conflicts);
          }
          const series: BookingSeries = {
            id: newId(),
            organizationId,
            scheduleId: command.scheduleId,
            recurrence,
            createdAt: now,
          };
          const made = occurrences
            .filter((_, i) => reasons[i] === null)
            .map((o) => resolved.build({ id: newId(), startTime: o.start, endTime: o.end, seriesId: series.id }, now));
          const announcements = made.map((m) => bookingChanged('booking.created', m.booking, now));
          const written = await this.series.insert(
            series,
            made.map((m) => m.booking),
            announcements,
          );
          const tokens = new Map(made.map((m) => [m.booking.id, m.manageToken]));
          const bookings = written.map((booking) => ({ booking, manageToken: tokens.get(booking.id)! }));
          return { series, bookings, skipped: conflicts };
        });
      } catch (error) {
        // Another write took one of the times after the check: check again, seeing it.
        if (error instanceof BookingOverlapError && attempt < SERIES_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  /** The series and every occurrence, whatever its status, by start. */
  async get(organizationId: string, id: string): Promise<{ series: BookingSeries; bookings: Booking[] }> {
    const series = await this.series.find(organizationId, id);
    if (!series) throw new NotFoundError('Booking series');
    return { series, bookings: await this.series.occurrences(organizationId, id) };
  }

  /**
   * Cancels the series' PENDING/CONFIRMED occurrences, or with `fromBookingId` that occurrence and
   * the later ones, in one transaction; each cancellation is announced as a single cancel is
   * (`booking.cancelled` with its previous status). A `fromBookingId` that is not an occurrence of
   * the series: 404.
   */
  async cancel(organizationId: string, id: string, fromBookingId: string | null): Promise<{ series: BookingSeries; cancelled: number }> {
    return this.transactions.run(async () => {
      const series = await this.series.find(organizationId, id);
      if (!series) throw new NotFoundError('Booking series');
      let from: Date | null = null;
      if (fromBookingId !== null) {
        const first = await this.bookings.findById(organizationId, fromBookingId);
        if (!first || first.seriesId !== id) throw new NotFoundError('Booking of this series');
        from = first.startTime;
      }
      const now = this.clock.now();
      const cancelled = await this.series.cancelFrom(organizationId, id, from, now);
      if (cancelled.length > 0) {
        await this.outbox.announce(...cancelled.map((c) => bookingChanged('booking.cancelled', c.booking, now, c.previousStatus)));
      }
      return { series, cancelled: cancelled.length };
    });
  }
}
