import { Injectable } from '@nestjs/common';
import { BackgroundSweep, Clock, DomainError, FieldError, isUuid, newId, NotFoundError, Transactions } from '@almanac/shared';
import { DEFAULT_RESERVATION_TTL_MINUTES, newReservation, Reservation } from '../domain/reservation';
import { BookingOverlapError, reservationConflict, SlotUnavailableError } from '../domain/scheduling-errors';
import { slotVerdict } from '../domain/slots';
import { BlockedTimeRepository } from '../infrastructure/blocked-time.repository';
import { BookingRepository } from '../infrastructure/booking.repository';
import { ReservationRepository } from '../infrastructure/reservation.repository';
import { BookingLimits } from './booking-limits.service';
import { holderOf, slotLimitTarget, SlotsService } from './slots.service';

export interface ReserveCommand {
  eventTypeId: string;
  scheduleId: string;
  startTime: Date;
  ttlMinutes?: number;
}

const MINUTE = 60_000;
/** Stands for an id that is not a UUID: no record has it. */
const NO_RECORD = '00000000-0000-0000-0000-000000000000';
/** Expired reservations are swept at most once a minute per instance, at most 10 × 1,000 rows a sweep. */
const SWEEP_INTERVAL_MS = 60_000;
export const RESERVATION_SWEEP_BATCH = 1_000;
export const RESERVATION_SWEEP_MAX_BATCHES = 10;

/**
 * Slot holds. A reservation is taken only on a start `/slots` offers at that moment (checked just
 * before the insert; when the type or the schedule has limits, in one transaction with it under the
 * limits' locks, the ones bookings take, so the last place of a limit has one winner whether a
 * booking or a reservation takes it; unexpired reservations count toward every limit like
 * bookings), and only while nothing else holds its time: the exclusion constraint of `schedule_blocked_times` decides that, so of
 * concurrent writers on overlapping time (reservations, bookings, reschedules) one wins.
 */
@Injectable()
export class ReservationsService {
  private readonly sweeper = new BackgroundSweep(
    'expired reservations',
    SWEEP_INTERVAL_MS,
    (limit) => this.reservations.deleteExpired(this.clock.now(), limit),
    RESERVATION_SWEEP_BATCH,
    RESERVATION_SWEEP_MAX_BATCHES,
  );

  constructor(
    private readonly transactions: Transactions,
    private readonly reservations: ReservationRepository,
    private readonly bookings: BookingRepository,
    private readonly blockedTimes: BlockedTimeRepository,
    private readonly slots: SlotsService,
    private readonly clock: Clock,
    private readonly limits: BookingLimits,
  ) {}

  async create(organizationId: string, command: ReserveCommand): Promise<Reservation> {
    const missing: FieldError[] = [];
    const noSchedule = { field: 'schedule_id', message: 'does not name a schedule of this organization' };
    const noEventType = { field: 'event_type_id', message: 'does not name an event type of this organization' };
    // An id that is not a UUID names no record, like an unknown one.
    const refs = await this.bookings.references(
      organizationId,
      isUuid(command.scheduleId) ? command.scheduleId : NO_RECORD,
      isUuid(command.eventTypeId) ? command.eventTypeId : NO_RECORD,
    );
    if (!refs.schedule.found) missing.push(noSchedule);
    if (!refs.eventType?.found) missing.push(noEventType);
    if (!refs.schedule.found || !refs.eventType?.found) {
      throw new DomainError('invalid_reference', 'The request names a record that does not exist.', missing);
    }
    const schedule = refs.schedule;
    const rules = refs.eventType.rules;
    const now = this.clock.now();
    this.sweeper.nowAndThen(now.getTime());
    const reservation = newReservation(
      {
        id: newId(),
        organizationId,
        scheduleId: command.scheduleId,
        eventTypeId: command.eventTypeId,
        startTime: command.startTime,
        duration: rules.duration,
        bufferBefore: rules.bufferBefore,
        bufferAfter: rules.bufferAfter,
        ttlMinutes: command.ttlMinutes ?? DEFAULT_RESERVATION_TTL_MINUTES,
      },
      now,
    );
    const start = reservation.startTime.getTime();
    const target = slotLimitTarget(organizationId, command.scheduleId, command.eventTypeId, schedule, rules);
    const checkAndInsert = async (): Promise<Reservation> => {
      const [{ busy, ids }, limitOn] = await Promise.all([
        this.slots.heldTimes(organizationId, command.scheduleId, schedule, rules, start, start + 1, now.getTime(), true),
        this.slots.limitsOn(organizationId, command, schedule, rules, start, start + 1),
      ]);
      const verdict = slotVerdict(
        { availability: schedule.availability, scheduleTimeZone: schedule.timezone, rules, now: now.getTime(), busy, limitOn },
        start,
      );
      if (verdict) throw new SlotUnavailableError(verdict.reason, holderOf(ids, verdict.reason, verdict.busyIndex));
      return this.reservations.insert(reservation);
    };
    try {
      // Without limits the check only makes the answer friendly (the exclusion constraint decides
      // overlaps), so its reads and the insert run on their own: no transaction to hold.
      if (!this.limits.applies(target)) return await checkAndInsert();
      return await this.transactions.run(async () => {
        // Limits count reservations with bookings: both take the periods' locks to count and write.
        await this.limits.lock(target, [{ start, end: reservation.endTime.getTime() }]);
        return checkAndInsert();
      });
    } catch (error) {
      if (!(error instanceof BookingOverlapError) || error.holder) throw error;
      // Taken meanwhile: name what holds the time now that the transaction is over.
      const holder = await this.blockedTimes.holder(
        organizationId,
        command.scheduleId,
        new Date(start - reservation.bufferBefore * MINUTE),
        new Date(reservation.endTime.getTime() + reservation.bufferAfter * MINUTE),
        now,
      );
      throw reservationConflict(holder);
    }
  }

  async get(organizationId: string, id: string): Promise<Reservation> {
    const reservation = await this.reservations.findActive(organizationId, id, this.clock.now());
    if (!reservation) throw new NotFoundError('Reservation');
    return reservation;
  }

  /** Releases an unexpired reservation: its time is free at once. */
  async release(organizationId: string, id: string): Promise<void> {
    const taken = await this.reservations.take(organizationId, id, this.clock.now());
    if (!taken) throw new NotFoundError('Reservation');
  }

  /**
   * Deletes expired reservations in batches until one comes back short or `maxBatches` ran; returns
   * how many went. They already hold nothing: this only keeps the table small.
   */
  sweep(batchSize = RESERVATION_SWEEP_BATCH, maxBatches = RESERVATION_SWEEP_MAX_BATCHES): Promise<number> {
    return this.sweeper.run(batchSize, maxBatches);
  }
}
