import { Injectable } from '@nestjs/common';
import {
  AppConfig,
  cappedCountSql,
  CountCap,
  InvalidReferenceError,
  ListTotal,
  Page,
  PG_CHECK_VIOLATION,
  PG_EXCLUSION_VIOLATION,
  PG_FOREIGN_KEY_VIOLATION,
  pgErrorOf,
  SqlParams,
  Transactions,
} from '@almanac/shared';
import { Event, EventListFilter } from '../domain/event';
import { ScheduleTimeHeldError, SlotsBelowRegistrationsError } from '../domain/event-errors';
import { EVENT_TABLE } from './event.table';

type EventRow = Record<string, unknown> & { id: string };

const COLUMNS = EVENT_TABLE.select('e');

function toDomain(row: EventRow): Event {
  return Event.restore(EVENT_TABLE.fromRow(row));
}

/**
 * The earliest start_date (YYYY-MM-DD) of an event that may still be running at `instant`, i.e. whose
 * `ends_at` may be later. An event ends at the latest at the midnight after its start_date, local time
 * of its zone (`eventWindow`, `zonedTimeToUtc`): at most start_date + 24 h − offset, in UTC, for some
 * offset the zone has had. Offsets today lie between −12 h and +14 h; the tz database's oldest local
 * mean times go down to −15:56 (Asia/Manila before 1845), never −24 h. So an event ends before
 * start_date + 48 h UTC whatever its zone and year; an event with ends_at > instant therefore has
 * start_date 00:00 UTC > instant − 48 h, hence start_date ≥ the UTC date of (instant − 48 h).
 * (Events end within start_date + 40 h, so one day back would do; two leave 32 h of margin for the
 * price of one more day of rows ahead of the page.)
 */
function earliestStartDateEndingAfter(instant: Date): string {
  return new Date(instant.getTime() - 2 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** One event of the organization. */
const EVENT_BY_ID = `SELECT ${COLUMNS} FROM events e WHERE e.organization_id = $1 AND e.id = $2`;

/** The list statement (see `EventsRepository.list`). */
function eventListQuery(
  organizationId: string,
  filter: EventListFilter,
  page: Page,
  cap: CountCap,
): { text: string; values: unknown[] } {
  const params: unknown[] = [organizationId];
  const where = ['e.organization_id = $1'];
  const add = (condition: string, value: unknown) => {
    params.push(value);
    where.push(condition.replace('?', `$${params.length}`));
  };
  if (filter.siteId !== undefined) add('e.site_id = ?', filter.siteId);
  if (filter.status !== undefined) add('e.status = ?', filter.status);
  if (filter.endsAfter !== undefined) add('e.ends_at > ?', filter.endsAfter);
  if (filter.endedBy !== undefined) add('e.ends_at <= ?', filter.endedBy);
  if (filter.fromDate !== undefined) add('e.start_date >= ?::date', filter.fromDate);
  if (filter.toDate !== undefined) add('e.start_date <= ?::date', filter.toDate);
  const conditions = where.join(' AND ');
  // Redundant for the result, decisive for the plan: only the page gets it (the count is cheapest
  // on the ends_at index alone).
  if (filter.endsAfter !== undefined) add('e.start_date >= ?::date', earliestStartDateEndingAfter(filter.endsAfter));
  const pageConditions = where.join(' AND ');
  params.push(cap.rowsToRead);
  const rowsToRead = `$${params.length}`;
  params.push(page.limit, page.offset);
  const text = `
    WITH total AS (
      ${cappedCountSql(`SELECT 1 FROM events e WHERE ${conditions}`, rowsToRead)}
    ),
    page AS (
      SELECT ${COLUMNS}, e.start_date AS sort_date, e.start_time AS sort_time
        FROM events e
       WHERE ${pageConditions}
       ORDER BY e.start_date, e.start_time NULLS FIRST, e.id
       LIMIT $${params.length - 1} OFFSET $${params.length}
    )
    SELECT total.total, page.*
      FROM total LEFT JOIN page ON true
     ORDER BY page.sort_date, page.sort_time NULLS FIRST, page.id`;
  return { text, values: params };
}

/**
 * `slots` may never drop below the active registrations: the CHECK says so even when a race slips by.
 * A published event's time on its schedule is held through scheduling's exclusion constraint (the
 * trigger that writes it runs in this statement); its schedule must be one of the organization.
 */
function translateWriteError(error: unknown, event: Event): never {
  const pg = pgErrorOf(error);
  if (pg.code === PG_CHECK_VIOLATION && pg.constraint === 'events_registrations_within_slots') {
    throw new SlotsBelowRegistrationsError(event.snapshot.slots ?? 0);
  }
  if (pg.code === PG_EXCLUSION_VIOLATION && pg.constraint === 'schedule_blocked_times_no_overlap') throw new ScheduleTimeHeldError();
  if (pg.code === PG_FOREIGN_KEY_VIOLATION && pg.constraint === 'events_schedule_fkey') throw new InvalidReferenceError('schedule_id');
  throw error;
}

/**
 * Events in PostgreSQL. Every statement is scoped to one organization, and runs in the ambient unit
 * of work (`Transactions`), or on its own.
 */
@Injectable()
export class EventsRepository {
  constructor(
    private readonly db: Transactions,
    private readonly config: AppConfig,
  ) {}

  async insert(event: Event): Promise<void> {
    const insert = EVENT_TABLE.insert(event.snapshot);
    try {
      await this.db.rows(insert.text, insert.values);
    } catch (error) {
      translateWriteError(error, event);
    }
  }

  /** Writes every field a change may touch (the derived instants included). */
  async update(event: Event): Promise<void> {
    const { id, organizationId, createdAt: _createdAt, ...changes } = event.snapshot;
    const params = new SqlParams();
    const set = EVENT_TABLE.set(params, changes);
    try {
      await this.db.rows(
        `UPDATE events SET ${set} WHERE organization_id = ${params.add(organizationId)} AND id = ${params.add(id)}`,
        params.values,
      );
    } catch (error) {
      translateWriteError(error, event);
    }
  }

  async findById(organizationId: string, id: string): Promise<Event | null> {
    const rows = await this.db.rows<EventRow>(EVENT_BY_ID, [organizationId, id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  /**
   * The event as it is now, with the row lock that serializes every change of the event and of its
   * registrations until the transaction ends (always taken first, so two use cases never wait on each
   * other in opposite orders).
   */
  async lockById(organizationId: string, id: string): Promise<Event | null> {
    const rows = await this.db.rowsInTransaction<EventRow>(`${EVENT_BY_ID} FOR UPDATE`, [organizationId, id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  /** Deletes the event; its registrations go with it (ON DELETE CASCADE). */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.rows('DELETE FROM events WHERE organization_id = $1 AND id = $2 RETURNING id', [organizationId, id]);
    return rows.length > 0;
  }

  /**
   * A page of events in list order and the total, in one statement: the count in its own CTE, the
   * page in another with its LIMIT, so that the page stops after `limit` rows on the list index
   * instead of visiting every match (as `count(*) OVER ()` must). The count stops at the cap
   * (`CountCap`): upcoming events alone grow with the organization. Always returns one row at least:
   * when the page is empty, a single row with `id` null carries the total. Registration counts are
   * columns of the row, so they cost nothing whatever the page size.
   *
   * `endsAfter` also bounds the page's start_date from below (see `earliestStartDateEndingAfter`):
   * the bound is implied by `ends_at > endsAfter`, so it changes no result, but it lets the list index
   * `(organization_id, start_date, start_time, id)` start its range scan at the right place.
   */
  async list(organizationId: string, filter: EventListFilter, page: Page): Promise<{ events: Event[]; total: ListTotal }> {
    const cap = CountCap.forPage(page, this.config.listCountCap);
    const { text, values } = eventListQuery(organizationId, filter, page, cap);
    const rows = await this.db.rows<(EventRow & { total: string }) | { id: null; total: string }>(text, values);
    return {
      total: cap.totalOf(rows[0]?.total),
      events: rows.filter((row): row is EventRow & { total: string } => row.id !== null).map(toDomain),
    };
  }
}
