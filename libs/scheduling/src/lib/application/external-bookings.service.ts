import { Injectable } from '@nestjs/common';
import {
  Clock,
  DomainEvent,
  inTurns,
  InvalidReferenceError,
  isUuid,
  newId,
  Outbox,
  PG_EXCLUSION_VIOLATION,
  pgErrorOf,
  Transactions,
} from '@almanac/shared';
import { BookingRepository } from '../infrastructure/booking.repository';
import { BookingEventType, isBookableSpan } from '../domain/booking';
import {
  ExistingImport,
  ImportChange,
  ImportedBooking,
  importedBookingKey,
  NewImport,
  uniqueImportedBookings,
} from '../domain/imported-booking';
import { bookingChanged } from '../domain/scheduling-announcements';
import { BookingStatus, isActiveBookingStatus } from '../domain/booking-status';
import { ExternalBookingRepository } from '../infrastructure/external-booking.repository';
import { ScheduleRepository } from '../infrastructure/schedule.repository';

export interface ExternalSyncOutcome {
  /** New bookings created. */
  synced: number;
  /** Imported bookings whose time or details changed (or that came back after the import cancelled them). */
  updated: number;
  /** Imported bookings cancelled because their occurrence is gone from the range. */
  cancelled: number;
  /** Occurrences already imported and unchanged (or whose booking was finished or cancelled by a user). */
  duplicate: number;
  /** Occurrences that would overlap another PENDING or CONFIRMED booking (or have no positive duration). */
  conflict: number;
}

const BATCH_SIZE = 1000;

function sameDetails(row: ExistingImport, o: ImportedBooking): boolean {
  return (
    row.startTime.getTime() === o.start.getTime() &&
    row.endTime.getTime() === o.end.getTime() &&
    row.title === o.title &&
    (row.location ?? null) === o.location
  );
}

/** Which existing booking stands for an occurrence when several carry its key: one holding time first. */
function rank(row: ExistingImport): number {
  if (isActiveBookingStatus(row.status)) return 0;
  if (row.status === 'CANCELLED' && row.cancelledBySync) return 1;
  return 2;
}

function isOverlap(error: unknown): boolean {
  return pgErrorOf(error).code === PG_EXCLUSION_VIOLATION;
}

/**
 * The scheduling side of the calendar import (calendar-sync uses it through the public API):
 * turns a feed's occurrences (`ImportedBooking`s) into CONFIRMED bookings of one schedule, recognising
 * earlier imports by their server-written `external_uid` + `external_recurrence_id` (never by
 * client-writable metadata). No `EntityManager` crosses this API: `reconcileImported` runs in the
 * ambient transaction of `Transactions` (the caller's `run`), or in one of its own.
 */
@Injectable()
export class ExternalBookingsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: ExternalBookingRepository,
    private readonly schedules: ScheduleRepository,
    private readonly bookings: BookingRepository,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  /** true when the schedule exists in the organization */
  async scheduleExists(organizationId: string, scheduleId: string): Promise<boolean> {
    if (!isUuid(organizationId) || !isUuid(scheduleId)) return false;
    return (await this.schedules.findById(organizationId, scheduleId)) !== null;
  }

  /**
   * Runs in the caller's transaction when it is inside `Transactions.run`, else in one of its own.
   * For each booking, keyed by (externalUid, recurrenceId) among this schedule's imported bookings
   * (a repeated key counts once, the repeats as `duplicate`):
   * - none → a CONFIRMED booking with metadata {source:'external_calendar', external_uid, recurrence_id}
   *   (`synced`), or `conflict` when it overlaps another PENDING/CONFIRMED booking;
   * - unchanged start/end/title/location and still holding its time → `duplicate`;
   * - changed, or cancelled earlier by an import → times and details updated (`updated`), or
   *   `conflict` when the new time overlaps (the booking then keeps its old time / stays cancelled);
   * - a booking that is COMPLETED, NO_SHOW or was cancelled by a user is left alone → `duplicate`.
   * Imported PENDING/CONFIRMED bookings of the schedule starting within [range.start, range.end) that
   * are not among the occurrences are cancelled (`cancelled`). Occurrences whose end is not after
   * their start (or lie outside years 0001-9999) cannot be bookings and count as `conflict`.
   *
   * Overlaps never abort the caller's transaction: each batch runs under the repository's underSavepoint and a batch
   * that hits the exclusion constraint is split until the offending rows are isolated.
   * Throws `invalid_reference` (422) when the schedule does not exist in the organization.
   */
  async reconcileImported(
    organizationId: string,
    scheduleId: string,
    range: { start: Date; end: Date },
    items: readonly ImportedBooking[],
  ): Promise<ExternalSyncOutcome> {
    return this.transactions.run(() => this.reconcile(organizationId, scheduleId, range, items));
  }

  private async reconcile(
    organizationId: string,
    scheduleId: string,
    range: { start: Date; end: Date },
    items: readonly ImportedBooking[],
  ): Promise<ExternalSyncOutcome> {
    const { start: rangeStart, end: rangeEnd } = range;
    // KEY SHARE: the schedule cannot be deleted under the import.
    const timezone =
      isUuid(organizationId) && isUuid(scheduleId)
        ? ((await this.schedules.lockById(organizationId, scheduleId, 'key share'))?.timezone ?? null)
        : null;
    if (timezone === null) throw new InvalidReferenceError('schedule_id');

    const outcome: ExternalSyncOutcome = { synced: 0, updated: 0, cancelled: 0, duplicate: 0, conflict: 0 };
    // Tens of thousands of occurrences are walked in slices (inTurns), and written and announced in
    // batches: no step holds the event loop for long, no statement carries more than one batch.
    const { unique, repeated } = uniqueImportedBookings(items);
    outcome.duplicate += repeated;
    const wanted = new Map<string, ImportedBooking>();
    await inTurns(unique, (o) => wanted.set(o.key, o));

    const uids = [...new Set(unique.map((o) => o.externalUid))];
    const existingRows = await this.repository.loadImported(organizationId, scheduleId, rangeStart, rangeEnd, uids);
    const existing = new Map<string, ExistingImport>();
    // Vanished first: their time is free for the moves and new bookings below.
    const vanished: string[] = [];
    await inTurns(existingRows, (row) => {
      const key = importedBookingKey(row.externalUid ?? '', row.recurrenceId);
      const current = existing.get(key);
      if (!current || rank(row) < rank(current)) existing.set(key, row);
      if (isActiveBookingStatus(row.status) && row.startTime >= rangeStart && row.startTime < rangeEnd && !wanted.has(key)) vanished.push(row.id);
    });
    const now = this.clock.now();
    const cancelledIds: string[] = [];
    for (let i = 0; i < vanished.length; i += BATCH_SIZE) {
      cancelledIds.push(...(await this.repository.cancelMany(organizationId, vanished.slice(i, i + BATCH_SIZE), now)));
    }
    outcome.cancelled = cancelledIds.length;

    const inserts: NewImport[] = [];
    const updates: ImportChange[] = [];
    // By start, then key: the start read once per occurrence, not once per comparison.
    const ordered = [...wanted.entries()].map(([key, o]) => ({ key, o, start: o.start.getTime() }));
    ordered.sort((a, b) => a.start - b.start || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    await inTurns(ordered, ({ key, o }) => {
      if (!isBookableSpan(o.start, o.end)) {
        outcome.conflict += 1;
        return;
      }
      const row = existing.get(key);
      if (!row) {
        // ImportedBooking's fields are own properties (its key is a getter and does not spread).
        inserts.push({ id: newId(), ...o });
        return;
      }
      const active = isActiveBookingStatus(row.status);
      const revivable = row.status === 'CANCELLED' && row.cancelledBySync;
      if ((active && sameDetails(row, o)) || (!active && !revivable)) {
        outcome.duplicate += 1;
        return;
      }
      updates.push({ ...o, id: row.id, reactivate: revivable });
    });

    const updatedIds: string[] = [];
    const insertedIds: string[] = [];
    for (let i = 0; i < updates.length; i += BATCH_SIZE) {
      const batch = updates.slice(i, i + BATCH_SIZE);
      const done = await this.splitOnOverlap(batch, async (rows) => {
        const ids = await this.repository.updateMany(organizationId, now, rows);
        updatedIds.push(...ids);
        return ids.length;
      });
      outcome.updated += done.value;
      outcome.conflict += done.failed;
    }
    for (let i = 0; i < inserts.length; i += BATCH_SIZE) {
      const batch = inserts.slice(i, i + BATCH_SIZE);
      const done = await this.splitOnOverlap(batch, async (rows) => {
        const ids = await this.repository.insertIgnoringOverlaps(organizationId, scheduleId, timezone, now, rows);
        insertedIds.push(...ids);
        return ids.size;
      });
      outcome.synced += done.value;
      // Rows skipped by ON CONFLICT DO NOTHING overlapped something, as did rows isolated by splitting.
      outcome.conflict += batch.length - done.value;
    }
    await this.announce(organizationId, existingRows, {
      cancelled: cancelledIds,
      updated: updatedIds,
      inserted: insertedIds,
    });
    return outcome;
  }

  /**
   * One booking event per booking the import changed, in its transaction: created, cancelled
   * (vanished from the feed), confirmed (brought back after an earlier import cancelled it) or updated.
   * Read, built and recorded a batch at a time.
   */
  private async announce(
    organizationId: string,
    before: ExistingImport[],
    ids: { cancelled: string[]; updated: string[]; inserted: string[] },
  ): Promise<void> {
    const previous = new Map<string, BookingStatus>();
    await inTurns(before, (row) => previous.set(row.id, row.status));
    const occurredAt = this.clock.now();
    const changes: Array<{ id: string; kind: 'cancelled' | 'updated' | 'inserted' }> = [
      ...ids.cancelled.map((id) => ({ id, kind: 'cancelled' as const })),
      ...ids.updated.map((id) => ({ id, kind: 'updated' as const })),
      ...ids.inserted.map((id) => ({ id, kind: 'inserted' as const })),
    ];
    for (let i = 0; i < changes.length; i += BATCH_SIZE) {
      const batch = changes.slice(i, i + BATCH_SIZE);
      const byId = new Map((await this.bookings.findByIds(organizationId, batch.map((c) => c.id))).map((b) => [b.id, b]));
      const events: DomainEvent[] = [];
      for (const change of batch) {
        const booking = byId.get(change.id);
        if (!booking) continue;
        const was = previous.get(change.id);
        const [type, previousStatus]: [BookingEventType, BookingStatus | undefined] =
          change.kind === 'cancelled'
            ? ['booking.cancelled', was]
            : change.kind === 'inserted'
              ? ['booking.created', undefined]
              : was === 'CANCELLED'
                ? ['booking.confirmed', was]
                : ['booking.updated', undefined];
        events.push(bookingChanged(type, booking, occurredAt, previousStatus));
      }
      await this.outbox.announce(...events);
    }
  }

  /**
   * Runs `write` on the rows through the repository's underSavepoint; when it fails on the exclusion constraint the batch
   * is halved and retried, so only rows that overlap on their own are left out (`failed`).
   */
  private async splitOnOverlap<R>(
    rows: R[],
    write: (rows: R[]) => Promise<number>,
  ): Promise<{ value: number; failed: number }> {
    if (rows.length === 0) return { value: 0, failed: 0 };
    try {
      return { value: await this.repository.underSavepoint(() => write(rows)), failed: 0 };
    } catch (error) {
      if (!isOverlap(error)) throw error;
    }
    if (rows.length === 1) return { value: 0, failed: 1 };
    const middle = Math.ceil(rows.length / 2);
    const left = await this.splitOnOverlap(rows.slice(0, middle), write);
    const right = await this.splitOnOverlap(rows.slice(middle), write);
    return { value: left.value + right.value, failed: left.failed + right.failed };
  }
}
