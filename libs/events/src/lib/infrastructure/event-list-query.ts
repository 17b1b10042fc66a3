import type { Page } from '@almanac/shared';
import type { EventStatus } from '../domain/event-status';

// Framework-free on purpose: the bench floor (tools/bench/floor) loads this module from the build and
// runs exactly these statements.

/** Dates and times leave PostgreSQL as text in the API's formats, money as exact decimal text. */
export const COLUMNS = `
  e.id, e.organization_id, e.site_id, e.title, e.description,
  to_char(e.start_date, 'YYYY-MM-DD') AS start_date,
  to_char(e.start_time, 'HH24:MI') AS start_time,
  to_char(e.end_time, 'HH24:MI') AS end_time,
  e.timezone, e.location, e.cost::text AS cost, e.slots, e.registration_count, e.waitlist_enabled, e.waitlist_count, e.status,
  e.starts_at, e.ends_at, e.created_at, e.updated_at`;

export interface EventListFilter {
  siteId?: string;
  status?: EventStatus;
  /** Only events not yet ended at this instant. */
  endsAfter?: Date;
  /** Only events ended at this instant. */
  endedBy?: Date;
  /** start_date on or after (YYYY-MM-DD). */
  fromDate?: string;
  /** start_date on or before (YYYY-MM-DD). */
  toDate?: string;
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
export function earliestStartDateEndingAfter(instant: Date): string {
  return new Date(instant.getTime() - 2 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** The list statement (see `EventsRepository.list`); the bench floor runs the same text. */
export function eventListQuery(organizationId: string, filter: EventListFilter, page: Page): { text: string; values: unknown[] } {
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
  params.push(page.limit, page.offset);
  const text = `
    WITH total AS (
      SELECT count(*) AS total FROM events e
       WHERE ${conditions}
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
