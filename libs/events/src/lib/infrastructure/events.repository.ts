import { Injectable } from '@nestjs/common';
import { Page, PG_CHECK_VIOLATION, pgErrorOf, returnedRows } from '@almanac/shared';
import { EntityManager } from 'typeorm';
import { Event } from '../domain/event';
import { SlotsBelowRegistrationsError } from '../domain/event-errors';
import { EventStatus } from '../domain/event-status';
import { moneyFromDecimal, moneyToDecimal } from '../domain/money';
import { EventListFilter, eventListQuery } from './event-list-query';
import { eventByIdQuery } from './event-queries';

export type { EventListFilter } from './event-list-query';

interface EventRow {
  id: string;
  organization_id: string;
  site_id: string | null;
  title: string;
  description: string | null;
  start_date: string;
  start_time: string | null;
  end_time: string | null;
  timezone: string;
  location: string | null;
  cost: string;
  slots: number | null;
  registration_count: number;
  waitlist_enabled: boolean;
  waitlist_count: number;
  status: EventStatus;
  starts_at: Date;
  ends_at: Date;
  created_at: Date;
  updated_at: Date;
}



function toDomain(row: EventRow): Event {
  return Event.restore({
    id: row.id,
    organizationId: row.organization_id,
    siteId: row.site_id,
    title: row.title,
    description: row.description,
    startDate: row.start_date,
    startTime: row.start_time,
    endTime: row.end_time,
    timezone: row.timezone,
    location: row.location,
    cost: moneyFromDecimal(row.cost),
    slots: row.slots,
    registrationCount: row.registration_count,
    waitlistEnabled: row.waitlist_enabled,
    waitlistCount: row.waitlist_count,
    status: row.status,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

/** `slots` may never drop below the active registrations: the CHECK says so even when a race slips by. */
function translateWriteError(error: unknown, event: Event): never {
  const pg = pgErrorOf(error);
  if (pg.code === PG_CHECK_VIOLATION && pg.constraint === 'events_registrations_within_slots') {
    throw new SlotsBelowRegistrationsError(event.snapshot.slots ?? 0);
  }
  throw error;
}

/** Events in PostgreSQL. Every statement is scoped to one organization. */
@Injectable()
export class EventsRepository {
  async insert(em: EntityManager, event: Event): Promise<void> {
    const e = event.snapshot;
    await em.query(
      `INSERT INTO events (id, organization_id, site_id, title, description, start_date, start_time, end_time, timezone,
                           location, cost, slots, status, starts_at, ends_at, created_at, updated_at, waitlist_enabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        e.id, e.organizationId, e.siteId, e.title, e.description, e.startDate, e.startTime, e.endTime, e.timezone,
        e.location, moneyToDecimal(e.cost), e.slots, e.status, e.startsAt, e.endsAt, e.createdAt, e.updatedAt, e.waitlistEnabled,
      ],
    );
  }

  /** Writes every editable column and the derived instants. */
  async update(em: EntityManager, event: Event): Promise<void> {
    const e = event.snapshot;
    try {
      await em.query(
        `UPDATE events SET site_id = $3, title = $4, description = $5, start_date = $6, start_time = $7, end_time = $8,
                timezone = $9, location = $10, cost = $11, slots = $12, status = $13, starts_at = $14, ends_at = $15,
                updated_at = $16, waitlist_enabled = $17
          WHERE organization_id = $1 AND id = $2`,
        [
          e.organizationId, e.id, e.siteId, e.title, e.description, e.startDate, e.startTime, e.endTime, e.timezone,
          e.location, moneyToDecimal(e.cost), e.slots, e.status, e.startsAt, e.endsAt, e.updatedAt, e.waitlistEnabled,
        ],
      );
    } catch (error) {
      translateWriteError(error, event);
    }
  }

  /**
   * One event of the organization. `lock` takes the row lock that serializes every change of the
   * event and of its registrations (always taken first, so two use cases never wait on each other in
   * opposite orders).
   */
  async findById(em: EntityManager, organizationId: string, id: string, options: { lock?: boolean } = {}): Promise<Event | null> {
    const query = eventByIdQuery(organizationId, id, options.lock === true);
    const rows: EventRow[] = await em.query(query.text, query.values);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  /** Deletes the event; its registrations go with it (ON DELETE CASCADE). */
  async delete(em: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const result: unknown = await em.query('DELETE FROM events WHERE organization_id = $1 AND id = $2 RETURNING id', [
      organizationId,
      id,
    ]);
    return returnedRows(result).length > 0;
  }

  /**
   * A page of events in list order and the total, in one statement: the count in its own CTE, the
   * page in another with its LIMIT, so that the page stops after `limit` rows on the list index
   * instead of visiting every match (as `count(*) OVER ()` must). Always returns one row at least:
   * when the page is empty, a single row with `id` null carries the total. Registration counts are
   * columns of the row, so they cost nothing whatever the page size.
   *
   * `endsAfter` also bounds the page's start_date from below (see `earliestStartDateEndingAfter`):
   * the bound is implied by `ends_at > endsAfter`, so it changes no result, but it lets the list index
   * `(organization_id, start_date, start_time, id)` start its range scan at the right place.
   */
  async list(em: EntityManager, organizationId: string, filter: EventListFilter, page: Page): Promise<{ events: Event[]; total: number }> {
    const { text, values } = eventListQuery(organizationId, filter, page);
    const rows: ((EventRow & { total: string }) | { id: null; total: string })[] = await em.query(text, values);
    return {
      total: Number(rows[0]?.total ?? 0),
      events: rows.filter((row): row is EventRow & { total: string } => row.id !== null).map(toDomain),
    };
  }
}
