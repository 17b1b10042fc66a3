import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Clock,
  DomainEvent,
  InvalidReferenceError,
  isUuid,
  newId,
  Outbox,
  PG_EXCLUSION_VIOLATION,
  pgErrorOf,
  Transactions,
} from '@almanac/shared';
import { toBookingResponse } from '../api/scheduling.mappers';
import { BookingRepository } from '../infrastructure/booking.repository';
import { DataSource, EntityManager } from 'typeorm';
import { isBookableSpan } from '../domain/booking';
import { ImportedBooking, importedBookingKey, uniqueImportedBookings } from '../domain/imported-booking';
import { isActiveBookingStatus } from '../domain/booking-status';
import {
  ExternalBookingRepository,
  ImportedBookingRow,
  ImportRow,
  ImportUpdateRow,
} from '../infrastructure/external-booking.repository';
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

function sameDetails(row: ImportedBookingRow, o: ImportedBooking): boolean {
  return (
    row.start_time.getTime() === o.start.getTime() &&
    row.end_time.getTime() === o.end.getTime() &&
    row.title === o.title &&
    (row.location ?? null) === o.location
  );
}

/** Which existing booking stands for an occurrence when several carry its key: one holding time first. */
function rank(row: ImportedBookingRow): number {
  if (isActiveBookingStatus(row.status)) return 0;
  if (row.status === 'CANCELLED' && row.cancelled_by_sync) return 1;
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
    @InjectDataSource() private readonly dataSource: DataSource,
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
    return (await this.schedules.findById(this.dataSource.manager, organizationId, scheduleId)) !== null;
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
    return this.transactions.run(() =>
      this.reconcile(this.transactions.manager(), organizationId, scheduleId, range, items),
    );
  }

  private async reconcile(
    em: EntityManager,
    organizationId: string,
    scheduleId: string,
    range: { start: Date; end: Date },
    items: readonly ImportedBooking[],
  ): Promise<ExternalSyncOutcome> {
    const { start: rangeStart, end: rangeEnd } = range;
    // KEY SHARE: the schedule cannot be deleted under the import.
    const timezone =
      isUuid(organizationId) && isUuid(scheduleId)
        ? ((await this.schedules.findById(em, organizationId, scheduleId, 'key share'))?.timezone ?? null)
        : null;
    if (timezone === null) throw new InvalidReferenceError('schedule_id');

    const outcome: ExternalSyncOutcome = { synced: 0, updated: 0, cancelled: 0, duplicate: 0, conflict: 0 };
    const { unique, repeated } = uniqueImportedBookings(items);
    outcome.duplicate += repeated;
    const wanted = new Map<string, ImportedBooking>(unique.map((o) => [o.key, o]));

    const uids = [...new Set([...wanted.values()].map((o) => o.externalUid))];
    const existingRows = await this.repository.loadImported(
      em,
      organizationId,
      scheduleId,
      rangeStart,
      rangeEnd,
      uids,
    );
    const existing = new Map<string, ImportedBookingRow>();
    for (const row of existingRows) {
      const key = importedBookingKey(row.external_uid ?? '', row.recurrence_id);
      const current = existing.get(key);
      if (!current || rank(row) < rank(current)) existing.set(key, row);
    }

    // Vanished first: their time is free for the moves and new bookings below.
    const vanished = existingRows
      .filter((row) => isActiveBookingStatus(row.status))
      .filter((row) => row.start_time >= rangeStart && row.start_time < rangeEnd)
      .filter((row) => !wanted.has(importedBookingKey(row.external_uid ?? '', row.recurrence_id)))
      .map((row) => row.id);
    const now = this.clock.now();
    const cancelledIds = await this.repository.cancelMany(em, organizationId, vanished, now);
    outcome.cancelled = cancelledIds.length;

    const inserts: ImportRow[] = [];
    const updates: ImportUpdateRow[] = [];
    const ordered = [...wanted.entries()].sort(
      ([ka, a], [kb, b]) => a.start.getTime() - b.start.getTime() || (ka < kb ? -1 : ka > kb ? 1 : 0),
    );
    for (const [key, o] of ordered) {
      if (!isBookableSpan(o.start, o.end)) {
        outcome.conflict += 1;
        continue;
      }
      const row = existing.get(key);
      if (!row) {
        // ImportedBooking's fields are own properties (its key is a getter and does not spread).
        inserts.push({ id: newId(), ...o });
        continue;
      }
      const active = isActiveBookingStatus(row.status);
      const revivable = row.status === 'CANCELLED' && row.cancelled_by_sync;
      if ((active && sameDetails(row, o)) || (!active && !revivable)) {
        outcome.duplicate += 1;
        continue;
      }
      updates.push({ ...o, id: row.id, reactivate: revivable });
    }

    const updatedIds: string[] = [];
    const insertedIds: string[] = [];
    for (let i = 0; i < updates.length; i += BATCH_SIZE) {
      const batch = updates.slice(i, i + BATCH_SIZE);
      const done = await this.splitOnOverlap(em, batch, async (rows) => {
        const ids = await this.repository.updateMany(em, organizationId, now, rows);
        updatedIds.push(...ids);
        return ids.length;
      });
      outcome.updated += done.value;
      outcome.conflict += done.failed;
    }
    for (let i = 0; i < inserts.length; i += BATCH_SIZE) {
      const batch = inserts.slice(i, i + BATCH_SIZE);
      const done = await this.splitOnOverlap(em, batch, async (rows) => {
        const ids = await this.repository.insertIgnoringOverlaps(
          em,
          organizationId,
          scheduleId,
          timezone,
          now,
          rows,
        );
        insertedIds.push(...ids);
        return ids.size;
      });
      outcome.synced += done.value;
      // Rows skipped by ON CONFLICT DO NOTHING overlapped something, as did rows isolated by splitting.
      outcome.conflict += batch.length - done.value;
    }
    await this.announce(em, organizationId, existingRows, {
      cancelled: cancelledIds,
      updated: updatedIds,
      inserted: insertedIds,
    });
    return outcome;
  }

  /**
   * One booking event per booking the import changed, in its transaction: created, cancelled
   * (vanished from the feed), confirmed (brought back after an earlier import cancelled it) or updated.
   */
  private async announce(
    em: EntityManager,
    organizationId: string,
    before: ImportedBookingRow[],
    ids: { cancelled: string[]; updated: string[]; inserted: string[] },
  ): Promise<void> {
    const previous = new Map(before.map((row) => [row.id, row.status]));
    const changed = await this.bookings.findByIds(em, organizationId, [
      ...ids.cancelled,
      ...ids.updated,
      ...ids.inserted,
    ]);
    const byId = new Map(changed.map((b) => [b.id, b]));
    const occurredAt = this.clock.now();
    const events: DomainEvent[] = [];
    const push = (id: string, type: string, previousStatus?: string) => {
      const booking = byId.get(id);
      if (!booking) return;
      const event: DomainEvent = {
        type,
        organizationId,
        data: toBookingResponse(booking) as unknown as Record<string, unknown>,
        occurredAt,
      };
      if (previousStatus !== undefined) event.previousStatus = previousStatus;
      events.push(event);
    };
    for (const id of ids.cancelled) push(id, 'booking.cancelled', previous.get(id));
    for (const id of ids.updated) {
      const was = previous.get(id);
      if (was === 'CANCELLED') push(id, 'booking.confirmed', was);
      else push(id, 'booking.updated');
    }
    for (const id of ids.inserted) push(id, 'booking.created');
    await this.outbox.record(em, ...events);
  }

  /**
   * Runs `write` on the rows through the repository's underSavepoint; when it fails on the exclusion constraint the batch
   * is halved and retried, so only rows that overlap on their own are left out (`failed`).
   */
  private async splitOnOverlap<R>(
    em: EntityManager,
    rows: R[],
    write: (rows: R[]) => Promise<number>,
  ): Promise<{ value: number; failed: number }> {
    if (rows.length === 0) return { value: 0, failed: 0 };
    try {
      return { value: await this.repository.underSavepoint(em, () => write(rows)), failed: 0 };
    } catch (error) {
      if (!isOverlap(error)) throw error;
    }
    if (rows.length === 1) return { value: 0, failed: 1 };
    const middle = Math.ceil(rows.length / 2);
    const left = await this.splitOnOverlap(em, rows.slice(0, middle), write);
    const right = await this.splitOnOverlap(em, rows.slice(middle), write);
    return { value: left.value + right.value, failed: left.failed + right.failed };
  }
}
