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
} from '@almanac/shared';
import { toBookingResponse } from '../api/scheduling.mappers';
import { BookingRepository } from '../infrastructure/booking.repository';
import { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_BOOKING_TITLE, isBookableSpan } from '../domain/booking';
import { isActiveBookingStatus } from '../domain/booking-status';
import {
  ExternalBookingRepository,
  ImportedBookingRow,
  ImportRow,
  ImportUpdateRow,
} from '../infrastructure/external-booking.repository';
import { ScheduleRepository } from '../infrastructure/schedule.repository';

/** One occurrence of an external calendar event, as the calendar import hands it over. */
export interface ExternalOccurrence {
  /** iCalendar UID */
  externalUid: string;
  /** ISO instant of the original occurrence, null for non-recurring */
  recurrenceId: string | null;
  title: string;
  location: string | null;
  start: Date;
  end: Date;
  attendeeName: string;
  attendeeEmail: string | null;
}

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

export interface SyncOccurrencesInput {
  organizationId: string;
  scheduleId: string;
  rangeStart: Date;
  rangeEnd: Date;
  occurrences: ExternalOccurrence[];
}

const BATCH_SIZE = 1000;
const SAVEPOINT = 'scheduling_external_sync';
const TITLE_MAX = 300;
const LOCATION_MAX = 500;
const NAME_MAX = 300;
const EMAIL_MAX = 320;

type Normalized = Omit<ImportRow, 'id'>;

const NUL = String.fromCharCode(0);

function withoutNul(text: string): string {
  return text.split(NUL).join('');
}

function clean(text: string | null | undefined, max: number): string | null {
  if (text === null || text === undefined) return null;
  // PostgreSQL refuses NUL in text; a feed is outside input validation.
  const value = withoutNul(text).trim();
  return value.length === 0 ? null : value.slice(0, max);
}

/** Recurrence ids compare as instants when they are instants, else verbatim. */
function normalizeRecurrenceId(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : value;
}

function keyOf(uid: string, recurrenceId: string | null): string {
  return `${uid}\u0000${recurrenceId ?? ''}`;
}

function normalize(o: ExternalOccurrence): Normalized {
  const email = clean(o.attendeeEmail, Number.MAX_SAFE_INTEGER);
  return {
    externalUid: withoutNul(o.externalUid),
    recurrenceId: normalizeRecurrenceId(o.recurrenceId),
    title: clean(o.title, TITLE_MAX) ?? DEFAULT_BOOKING_TITLE,
    location: clean(o.location, LOCATION_MAX),
    start: o.start,
    end: o.end,
    attendeeName: clean(o.attendeeName, NAME_MAX) ?? 'External calendar',
    attendeeEmail: email !== null && email.length <= EMAIL_MAX ? email : null,
  };
}

function sameDetails(row: ImportedBookingRow, o: Normalized): boolean {
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
 * turns a feed's occurrences into CONFIRMED bookings of one schedule, recognising earlier imports
 * by their server-written `external_uid` + `external_recurrence_id` (never by client-writable metadata).
 */
@Injectable()
export class ExternalBookingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
   * Runs inside the caller's transaction (`em`; one is opened when `em` has none). For each
   * occurrence, keyed by (externalUid, recurrenceId) among this schedule's imported bookings:
   * - none → a CONFIRMED booking with metadata {source:'external_calendar', external_uid, recurrence_id}
   *   (`synced`), or `conflict` when it overlaps another PENDING/CONFIRMED booking;
   * - unchanged start/end/title/location and still holding its time → `duplicate`;
   * - changed, or cancelled earlier by an import → times and details updated (`updated`), or
   *   `conflict` when the new time overlaps (the booking then keeps its old time / stays cancelled);
   * - a booking that is COMPLETED, NO_SHOW or was cancelled by a user is left alone → `duplicate`.
   * Imported PENDING/CONFIRMED bookings of the schedule starting within [rangeStart, rangeEnd) that
   * are not among the occurrences are cancelled (`cancelled`). Occurrences whose end is not after
   * their start (or lie outside years 0001-9999) cannot be bookings and count as `conflict`.
   *
   * Overlaps never abort the caller's transaction: each batch runs under a savepoint and a batch
   * that hits the exclusion constraint is split until the offending rows are isolated.
   * Throws `invalid_reference` (422) when the schedule does not exist in the organization.
   */
  async syncOccurrences(em: EntityManager, input: SyncOccurrencesInput): Promise<ExternalSyncOutcome> {
    if (!em.queryRunner?.isTransactionActive) {
      return em.transaction((inner) => this.syncOccurrences(inner, input));
    }
    const { organizationId, scheduleId, rangeStart, rangeEnd } = input;
    // KEY SHARE: the schedule cannot be deleted under the import.
    const timezone =
      isUuid(organizationId) && isUuid(scheduleId)
        ? ((await this.schedules.findById(em, organizationId, scheduleId, 'key share'))?.timezone ?? null)
        : null;
    if (timezone === null) throw new InvalidReferenceError('schedule_id');

    const outcome: ExternalSyncOutcome = { synced: 0, updated: 0, cancelled: 0, duplicate: 0, conflict: 0 };
    const wanted = new Map<string, Normalized>();
    for (const occurrence of input.occurrences) {
      const o = normalize(occurrence);
      const key = keyOf(o.externalUid, o.recurrenceId);
      if (wanted.has(key)) {
        outcome.duplicate += 1;
        continue;
      }
      wanted.set(key, o);
    }

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
      const key = keyOf(row.external_uid ?? '', normalizeRecurrenceId(row.recurrence_id));
      const current = existing.get(key);
      if (!current || rank(row) < rank(current)) existing.set(key, row);
    }

    // Vanished first: their time is free for the moves and new bookings below.
    const vanished = existingRows
      .filter((row) => isActiveBookingStatus(row.status))
      .filter((row) => row.start_time >= rangeStart && row.start_time < rangeEnd)
      .filter((row) => !wanted.has(keyOf(row.external_uid ?? '', normalizeRecurrenceId(row.recurrence_id))))
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
        inserts.push({ id: newId(), ...o });
        continue;
      }
      const active = isActiveBookingStatus(row.status);
      const revivable = row.status === 'CANCELLED' && row.cancelled_by_sync;
      if ((active && sameDetails(row, o)) || (!active && !revivable)) {
        outcome.duplicate += 1;
        continue;
      }
      updates.push({
        id: row.id,
        title: o.title,
        location: o.location,
        start: o.start,
        end: o.end,
        attendeeName: o.attendeeName,
        attendeeEmail: o.attendeeEmail,
        reactivate: revivable,
      });
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
   * Runs `write` on the rows under a savepoint; when it fails on the exclusion constraint the batch
   * is halved and retried, so only rows that overlap on their own are left out (`failed`).
   */
  private async splitOnOverlap<R>(
    em: EntityManager,
    rows: R[],
    write: (rows: R[]) => Promise<number>,
  ): Promise<{ value: number; failed: number }> {
    if (rows.length === 0) return { value: 0, failed: 0 };
    await em.query(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const value = await write(rows);
      await em.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      return { value, failed: 0 };
    } catch (error) {
      await em.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      await em.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      if (!isOverlap(error)) throw error;
    }
    if (rows.length === 1) return { value: 0, failed: 1 };
    const middle = Math.ceil(rows.length / 2);
    const left = await this.splitOnOverlap(em, rows.slice(0, middle), write);
    const right = await this.splitOnOverlap(em, rows.slice(middle), write);
    return { value: left.value + right.value, failed: left.failed + right.failed };
  }
}
