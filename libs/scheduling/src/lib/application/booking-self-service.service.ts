import { Injectable } from '@nestjs/common';
import { Clock, findBySecretToken, NotFoundError, ValidationFailedError } from '@almanac/shared';
import { isBookableSpan, type Booking } from '../domain/booking';
import {
  assertAttendeeMayCancel,
  assertAttendeeMayReschedule,
  AttendeePolicy,
  attendeeRights,
  AttendeeRights,
  issueManageToken,
  ManagedBooking,
  MANAGE_TOKEN_PATTERN,
  OPEN_ATTENDEE_POLICY,
  rescheduledSpan,
} from '../domain/booking-self-service';
import type { Slot } from '../domain/slots';
import { SlotUnavailableError } from '../domain/scheduling-errors';
import { ManageTokenRepository } from '../infrastructure/manage-token.repository';
import { BookingsService } from './bookings.service';
import { SlotsService } from './slots.service';

/** What the attendee sees of their booking: the booking, its event type, and what they may do now. */
export interface AttendeeView {
  readonly booking: Booking;
  readonly eventType: { id: string; title: string; duration: number } | null;
  readonly rights: AttendeeRights;
}

/**
 * The attendee's side of a booking, opened by its manage token alone: see it, cancel it, find the
 * slots it may move to, move it. The event type's policy is read as it is at the time of the request;
 * a booking without an event type has no policy forbidding anything. Cancel and reschedule go through
 * the API's own paths (BookingsService), so every rule of those applies here too and their events are
 * announced the same way.
 */
@Injectable()
export class BookingSelfService {
  constructor(
    private readonly tokens: ManageTokenRepository,
    private readonly bookings: BookingsService,
    private readonly slotsService: SlotsService,
    private readonly clock: Clock,
  ) {}

  /** A new manage token for the booking (the old one opens nothing from now on). */
  async replaceToken(organizationId: string, bookingId: string): Promise<string> {
    const { token, hash } = issueManageToken();
    if (!(await this.tokens.replace(organizationId, bookingId, hash))) {
      throw new NotFoundError('Booking');
    }
    return token;
  }

  async view(token: string): Promise<AttendeeView> {
    return this.viewOf(await this.open(token));
  }

  /**
   * Cancels as the attendee (`cancelled_by: attendee`, with their reason); an already cancelled
   * booking is answered as it is. The rights are checked again on the booking as the write reads it.
   */
  async cancel(token: string, reason: string | null): Promise<AttendeeView> {
    const managed = await this.open(token);
    const policy = policyOf(managed);
    const { booking } = managed;
    const after = await this.bookings.cancel(
      booking.organizationId,
      booking.id,
      undefined,
      { cancelledBy: 'attendee', reason },
      (current, now) => void assertAttendeeMayCancel(current, policy, now),
    );
    return this.viewOf({ ...managed, booking: after });
  }

  /** The slots the booking may move to: those of its event type and schedule, its own time not blocking itself. */
  async slotsOf(token: string, range: { start?: string; end?: string; timezone?: string }): Promise<{ slots: Slot[]; timezone: string }> {
    const managed = await this.open(token);
    const { booking } = managed;
    if (managed.eventType === null) {
      throw new ValidationFailedError([{ field: 'token', message: 'the booking has no event type; slots need one' }]);
    }
    return this.slotsService.list(booking.organizationId, {
      eventTypeId: managed.eventType.id,
      scheduleId: booking.scheduleId,
      ...range,
      exceptBookingId: booking.id,
    });
  }

  /**
   * Moves the booking, keeping its length, through the API's reschedule (availability, notice,
   * window, limits, overlap: every rule of a reschedule), after the attendee's own rules.
   */
  async reschedule(token: string, startTime: Date): Promise<AttendeeView> {
    const managed = await this.open(token);
    const policy = policyOf(managed);
    const { booking } = managed;
    const span = rescheduledSpan(booking, startTime);
    if (!isBookableSpan(span.startTime, span.endTime)) {
      throw new ValidationFailedError([{ field: 'start_time', message: 'must be a supported instant' }]);
    }
    const after = await this.bookings.update(
      booking.organizationId,
      booking.id,
      span,
      undefined,
      (current, now) => {
        assertAttendeeMayReschedule(current, policy, now);
        // The API may move a booking anywhere in time (a back office fixing history); an attendee only
        // to a time still ahead, schedule availability or not.
        if (span.startTime.getTime() < now.getTime()) throw new SlotUnavailableError('minimum_notice');
      },
    );
    return this.viewOf({ ...managed, booking: after });
  }

  /** The booking the token opens; unknown, malformed or replaced: 404, as any missing booking. */
  private async open(token: string): Promise<ManagedBooking> {
    const managed = await findBySecretToken(token, MANAGE_TOKEN_PATTERN, (hash) => this.tokens.open(hash));
    if (!managed) throw new NotFoundError('Booking');
    return managed;
  }

  private viewOf(managed: ManagedBooking): AttendeeView {
    const e = managed.eventType;
    return {
      booking: managed.booking,
      eventType: e && { id: e.id, title: e.title, duration: e.duration },
      rights: attendeeRights(managed.booking, policyOf(managed), this.clock.now()),
    };
  }
}

function policyOf(managed: ManagedBooking): AttendeePolicy {
  return managed.eventType ?? OPEN_ATTENDEE_POLICY;
}
