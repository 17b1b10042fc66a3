import { Injectable } from '@nestjs/common';
import {
  Clock,
  DomainError,
  FieldError,
  InvalidTransitionError,
  isUuid,
  ListTotal,
  newId,
  NotFoundError,
  Outbox,
  Page,
  parseDateOrDateTime,
  Precondition,
  Transactions,
  ValidationFailedError,
} from '@almanac/shared';
import {
  Booking,
  BookingEventType,
  BookingListFilter,
  BookingUpdate,
  CancelledBy,
  EventTypeRef,
  newBooking,
  NewBookingInput,
  planBookingCancellation,
  planBookingUpdate,
  ScheduleRef,
} from '../domain/booking';
import { issueManageToken } from '../domain/booking-self-service';
import { BookingStatus } from '../domain/booking-status';
import { hasAvailability } from '../domain/availability';
import type { BookingRules } from '../domain/booking-rules';
import { assertConsumable } from '../domain/reservation';
import { bookingConflict, BookingOverlapError, SlotUnavailableError } from '../domain/scheduling-errors';
import { bookingMisfit } from '../domain/slots';
import { bookingChanged } from '../domain/scheduling-announcements';
import { BookingRepository } from '../infrastructure/booking.repository';
import { BlockedTimeRepository } from '../infrastructure/blocked-time.repository';
import { ReservationRepository } from '../infrastructure/reservation.repository';
import { BookingLimits, LimitedTime, limitTargetOf, LimitTarget } from './booking-limits.service';

/** A create request: the new booking's own fields, and the event type it names (if any). */
export type CreateBookingCommand = Omit<NewBookingInput, 'id' | 'organizationId' | 'schedule' | 'eventType' | 'manageTokenHash'> & {
  eventTypeId?: string | null;
  /** A reservation of exactly this slot, consumed by the booking in its transaction. */
  reservationId?: string;
};

export type UpdateBookingCommand = BookingUpdate;

/** A new booking, and its manage token: shown once, in the create answer, and never stored. */
export interface CreatedBooking {
  readonly booking: Booking;
  readonly manageToken: string;
}

/** What a create names, checked, and how each booking it makes is built (with its manage token). */
export interface ResolvedCreate {
  readonly schedule: ScheduleRef;
  readonly eventType: (EventTypeRef & { id: string }) | null;
  build(at: { id: string; startTime: Date; endTime: Date; seriesId?: string }, now: Date): CreatedBooking;
}

/** Who cancels, and why when they say it: the API's DELETE and PATCH are `api`. */
export interface Canceller {
  readonly cancelledBy: CancelledBy;
  readonly reason?: string | null;
}

/**
 * A rule of the caller checked on the booking as the write reads it, before anything is decided (the
 * attendee's notice and rights); it throws to refuse.
 */
export type BookingGuard = (current: Booking, now: Date) => void;

export interface BookingListQuery {
  scheduleId?: string;
  eventTypeId?: string;
  seriesId?: string;
  status?: BookingStatus;
  upcoming?: boolean;
  startDate?: string;
  endDate?: string;
  attendeeEmail?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;

const timeOf = (b: Pick<Booking, 'startTime' | 'endTime'>): LimitedTime => ({
  start: b.startTime.getTime(),
  end: b.endTime.getTime(),
});
/** A CANCEL can lose a race only to another status change; after that the answer is settled. */
const CANCEL_ATTEMPTS = 3;

@Injectable()
export class BookingsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly bookings: BookingRepository,
    private readonly reservations: ReservationRepository,
    private readonly blockedTimes: BlockedTimeRepository,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly limits: BookingLimits,
  ) {}

  /**
   * Runs a write of the booking's time; when the database refused it because something holds that
   * time, answers with what does (looked up once the write's transaction is over): a booking or an
   * event is 409 booking_overlap naming it, a reservation 409 slot_unavailable `reserved`.
   */
  private async holdingTime<T>(
    booking: Pick<Booking, 'id' | 'organizationId' | 'scheduleId' | 'bufferBefore' | 'bufferAfter'>,
    startTime: Date,
    endTime: Date,
    now: Date,
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof BookingOverlapError) || error.holder) throw error;
      const holder = await this.blockedTimes.holder(
        booking.organizationId,
        booking.scheduleId,
        new Date(startTime.getTime() - booking.bufferBefore * MINUTE_MS),
        new Date(endTime.getTime() + booking.bufferAfter * MINUTE_MS),
        now,
        { kind: 'booking', id: booking.id },
      );
      throw bookingConflict(holder);
    }
  }

  /**
   * New bookings are PENDING, whatever the event type's `requires_approval` says.
   * Title defaults to the event type's title, else "Booking"; timezone to the schedule's; location
   * type to the event type's. The overlap rule is the exclusion constraint's: concurrent creates for
   * the same time cannot both succeed. Every booking gets its manage token here (only its hash is kept).
   */
  async create(organizationId: string, command: CreateBookingCommand): Promise<CreatedBooking> {
    const resolved = await this.resolveCreate(organizationId, command);
    const now = this.clock.now();
    const { booking, manageToken } = resolved.build({ id: newId(), startTime: command.startTime, endTime: command.endTime }, now);
    const announcement = bookingChanged('booking.created', booking, this.clock.now());
    const { schedule, eventType } = resolved;
    const target = limitTargetOf(organizationId, booking.scheduleId, schedule, eventType);
    const fitsAvailability = eventType !== null && hasAvailability(schedule.availability);
    const reservationId = command.reservationId;
    const created = await this.holdingTime(booking, booking.startTime, booking.endTime, now, () => {
      if (reservationId === undefined && !fitsAvailability && !this.limits.applies(target)) {
        // One statement writes the booking and its announcement (both or neither); the overlap rule is
        // still the exclusion constraint's.
        return this.bookings.insert(booking, announcement);
      }
      // In one transaction under the locks of the periods it counts in (the same a reservation
      // takes): the reservation it names goes (of concurrent bookings naming it, the first to delete
      // it wins), the rules of its own time, the insert (an overlap is refused there, before any
      // limit) and the limits' count (reservations included), so concurrent bookings and
      // reservations for the last place of a limit take turns.
      return this.transactions.run(async () => {
        await this.limits.lock(target, [timeOf(booking)]);
        if (reservationId !== undefined) {
          const reservation = isUuid(reservationId) ? await this.reservations.take(organizationId, reservationId, now) : null;
          assertConsumable(reservation, booking, now);
        }
        if (fitsAvailability && eventType) this.assertFits(booking, schedule, eventType.rules, now);
        const inserted = await this.bookings.insert(booking, announcement);
        await this.assertWithinLimits(target, inserted);
        return inserted;
      });
    });
    return { booking: created, manageToken };
  }

  /**
   * The schedule and event type a create names (422 `invalid_reference` when one is not the
   * organization's), and how a new booking of that request is made, with its manage token: a single
   * booking, or each occurrence of a series.
   */
  async resolveCreate(organizationId: string, command: CreateBookingCommand): Promise<ResolvedCreate> {
    const eventTypeId = command.eventTypeId ?? null;
    const missing: FieldError[] = [];
    const noSchedule = { field: 'schedule_id', message: 'does not name a schedule of this organization' };
    const noEventType = {
      field: 'event_type_id',
      message: 'does not name an event type of this organization',
    };
    // An id that is not a UUID names no record, like an unknown one.
    if (!isUuid(command.scheduleId)) missing.push(noSchedule);
    if (eventTypeId !== null && !isUuid(eventTypeId)) missing.push(noEventType);
    if (missing.length > 0)
      throw new DomainError('invalid_reference', 'The request names a record that does not exist.', missing);

    const refs = await this.bookings.references(organizationId, command.scheduleId, eventTypeId);
    if (!refs.schedule.found) missing.push(noSchedule);
    if (refs.eventType && !refs.eventType.found) missing.push(noEventType);
    if (missing.length > 0 || !refs.schedule.found) {
      throw new DomainError('invalid_reference', 'The request names a record that does not exist.', missing);
    }
    const schedule: ScheduleRef = refs.schedule;
    const eventType = refs.eventType?.found && eventTypeId !== null ? { ...refs.eventType, id: eventTypeId } : null;
    return {
      schedule,
      eventType,
      build: (at, now) => {
        const manageToken = issueManageToken();
        const booking = newBooking(
          {
            ...command,
            ...at,
            organizationId,
            manageTokenHash: manageToken.hash,
            schedule,
            eventType: eventType && {
              id: eventType.id,
              title: eventType.title,
              locationType: eventType.locationType,
              bufferBefore: eventType.rules.bufferBefore,
              bufferAfter: eventType.rules.bufferAfter,
            },
          },
          now,
        );
        return { booking, manageToken: manageToken.token };
      },
    };
  }

  /**
   * Throws `SlotUnavailableError` unless the booking, made with an event type on a schedule that
   * has availability, fits the type's notice and window of days and the schedule's availability.
   */
  private assertFits(
    booking: Pick<Booking, 'startTime' | 'endTime'>,
    schedule: ScheduleRef,
    rules: BookingRules,
    now: Date,
  ): void {
    const reason = bookingMisfit({
      availability: schedule.availability,
      scheduleTimeZone: schedule.timezone,
      rules,
      start: booking.startTime.getTime(),
      end: booking.endTime.getTime(),
      now: now.getTime(),
    });
    if (reason) throw new SlotUnavailableError(reason);
  }

  /** Throws `SlotUnavailableError` when the written booking breaks a limit (it does not count against itself). */
  private async assertWithinLimits(target: LimitTarget, booking: Booking): Promise<void> {
    const [reason] = await this.limits.reasons(target, [timeOf(booking)], [booking.id]);
    if (reason) throw new SlotUnavailableError(reason);
  }

  /**
   * A reschedule meets the rules a new booking at that time would: the event type's and the
   * schedule's availability when it has both, and every limit, under the limits' locks.
   * Returns the check to run once the booking is moved.
   */
  private async prepareReschedule(
    current: Booking,
    startTime: Date,
    endTime: Date,
    now: Date,
  ): Promise<((moved: Booking) => Promise<void>) | null> {
    const refs = await this.bookings.references(current.organizationId, current.scheduleId, current.eventTypeId);
    if (!refs.schedule.found) return null;
    const eventType =
      refs.eventType?.found && current.eventTypeId !== null ? { ...refs.eventType, id: current.eventTypeId } : null;
    if (eventType && hasAvailability(refs.schedule.availability)) {
      this.assertFits({ startTime, endTime }, refs.schedule, eventType.rules, now);
    }
    const target = limitTargetOf(current.organizationId, current.scheduleId, refs.schedule, eventType);
    if (!this.limits.applies(target)) return null;
    await this.limits.lock(target, [{ start: startTime.getTime(), end: endTime.getTime() }]);
    return (moved) => this.assertWithinLimits(target, moved);
  }

  /** Records the booking event in the transaction of the change (a status move carries previous_status). */
  private async announce(
    type: BookingEventType,
    booking: Booking,
    previousStatus?: BookingStatus,
  ): Promise<void> {
    await this.outbox.announce(bookingChanged(type, booking, this.clock.now(), previousStatus));
  }

  async get(organizationId: string, id: string): Promise<Booking> {
    const booking = await this.bookings.findById(organizationId, id);
    if (!booking) throw new NotFoundError('Booking');
    return booking;
  }

  async list(
    organizationId: string,
    query: BookingListQuery,
    page: Page,
  ): Promise<{ items: Booking[]; total: ListTotal }> {
    const filter: BookingListFilter = {
      scheduleId: query.scheduleId,
      eventTypeId: query.eventTypeId,
      seriesId: query.seriesId,
      status: query.status,
      startsAtOrAfter: [],
      attendeeEmailContains: query.attendeeEmail,
    };
    if (query.upcoming === true) filter.startsAtOrAfter!.push(this.clock.now());
    if (query.startDate !== undefined) {
      const start = parseDateOrDateTime(query.startDate);
      if (!start)
        throw new ValidationFailedError([{ field: 'start_date', message: 'must be a date or a date-time' }]);
      filter.startsAtOrAfter!.push(start.instant);
    }
    if (query.endDate !== undefined) {
      const end = parseDateOrDateTime(query.endDate);
      if (!end)
        throw new ValidationFailedError([{ field: 'end_date', message: 'must be a date or a date-time' }]);
      // A date covers its whole UTC day: bookings starting on it are included.
      if (end.dateOnly) filter.startsBefore = new Date(end.instant.getTime() + DAY_MS);
      else filter.startsAtOrBefore = end.instant;
    }
    return this.bookings.list(organizationId, filter, page);
  }

  /**
   * Status moves follow BOOKING_TRANSITIONS; a reschedule needs a PENDING or CONFIRMED booking. Both
   * are compare-and-swap on the status read: if another request changed it in between, this one
   * finds nothing to update and answers 409 `invalid_transition`. `guard`: the caller's own rule on the
   * booking as read (an attendee's reschedule goes through here, so every rule of a reschedule applies to it).
   */
  async update(
    organizationId: string,
    id: string,
    command: UpdateBookingCommand,
    precondition = Precondition.none<Booking>(),
    guard?: BookingGuard,
  ): Promise<Booking> {
    const current = await this.bookings.findById(organizationId, id);
    if (!current) throw new NotFoundError('Booking');

    const now = this.clock.now();
    guard?.(current, now);
    const plan = planBookingUpdate(current, command, now);

    const write = () =>
      this.transactions.run(async () => {
        await precondition.checkLocked(() => this.bookings.lockById(organizationId, id));
        const checkLimits = plan.reschedule
          ? await this.prepareReschedule(current, plan.reschedule.startTime, plan.reschedule.endTime, now)
          : null;
        const after = await this.bookings.update(organizationId, id, plan.changes, plan.expectedStatus);
        if (after && checkLimits) await checkLimits(after);
        if (after) await this.announce(plan.event, after, plan.previousStatus);
        return after;
      });
    const updated = plan.reschedule
      ? await this.holdingTime(current, plan.reschedule.startTime, plan.reschedule.endTime, now, write)
      : await write();
    if (updated) return updated;
    const latest = await this.bookings.findById(organizationId, id);
    if (!latest) throw new NotFoundError('Booking');
    if (command.status !== undefined)
      throw new InvalidTransitionError('booking', latest.status, command.status);
    throw new DomainError(
      'invalid_transition',
      `The booking became ${latest.status} meanwhile; it was not rescheduled.`,
    );
  }

  /**
   * Soft delete: PENDING/CONFIRMED → CANCELLED; CANCELLED stays as it is; COMPLETED/NO_SHOW: 409.
   * `by`: who cancels (and their reason); `guard`: the caller's own rule on the booking as read.
   */
  async cancel(
    organizationId: string,
    id: string,
    precondition = Precondition.none<Booking>(),
    by: Canceller = { cancelledBy: 'api' },
    guard?: BookingGuard,
  ): Promise<Booking> {
    for (let attempt = 0; attempt < CANCEL_ATTEMPTS; attempt++) {
      const current = await this.bookings.findById(organizationId, id);
      if (!current) throw new NotFoundError('Booking');
      const now = this.clock.now();
      guard?.(current, now);
      const plan = planBookingCancellation(current, now, by);
      if (!plan) {
        precondition.assert(current);
        return current;
      }
      const cancelled = await this.transactions.run(async () => {
        await precondition.checkLocked(() => this.bookings.lockById(organizationId, id));
        const after = await this.bookings.update(organizationId, id, plan.changes, plan.expectedStatus);
        if (after) await this.announce('booking.cancelled', after, plan.expectedStatus);
        return after;
      });
      if (cancelled) return cancelled;
    }
    throw new DomainError(
      'invalid_transition',
      'The booking changed while it was being cancelled; try again.',
    );
  }
}
