import { Injectable } from '@nestjs/common';
import { Clock, isCalendarDate, isUuid, NotFoundError, ValidationFailedError } from '@almanac/shared';
import { Temporal } from 'temporal-polyfill';
import { localDateOf, localDayBounds } from '../domain/availability';
import { availableSlots, DEFAULT_SLOT_RANGE_DAYS, MAX_SLOT_RANGE_DAYS, Slot } from '../domain/slots';
import { BookingRepository } from '../infrastructure/booking.repository';

export interface SlotsCommand {
  eventTypeId: string;
  scheduleId: string;
  start?: string;
  end?: string;
  timezone?: string;
  /** A booking whose own time does not block (the slots its attendee may move it to). */
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
    // Bookings that can matter: any whose blocked time meets a candidate's (the range widened by the
    // candidate's reach), and every one starting on a local date whose windows are looked at (the
    // daily limit counts whole dates): from the day before the range's first date to the day after its last.
    const tz = refs.schedule.timezone;
    const firstDate = localDateOf(from, tz).subtract({ days: 1 });
    const lastDate = localDateOf(to, tz).add({ days: 2 });
    const busy = await this.bookings.busy(
      organizationId,
      command.scheduleId,
      command.eventTypeId,
      new Date(Math.min(from - rules.bufferBefore * 60_000, localDayBounds(firstDate, tz).start)),
      new Date(
        Math.max(
          to + (rules.duration + rules.bufferAfter) * 60_000,
          localDayBounds(lastDate, tz).start,
        ),
      ),
      command.exceptBookingId,
    );
    const slots = availableSlots({
      availability: refs.schedule.availability,
      scheduleTimeZone: refs.schedule.timezone,
      timeZone: timezone,
      rules,
      from,
      to,
      now,
      busy,
    });
    return { slots, timezone };
  }
}
