import { Injectable } from '@nestjs/common';
import { Transactions } from '@almanac/shared';
import type { BookingStatus } from '../domain/booking-status';
import type { FeedBooking, FeedEvent } from '../domain/icalendar';

interface FeedBookingRow {
  id: string;
  title: string;
  location: string | null;
  status: BookingStatus;
  start_time: Date;
  end_time: Date;
  attendee_name: string;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const FEED_COLUMNS =
  'id, title, location, status, start_time, end_time, attendee_name, created_at, updated_at, version';

function toFeedBooking(r: FeedBookingRow): FeedBooking {
  return {
    id: r.id,
    title: r.title,
    location: r.location,
    status: r.status,
    startTime: r.start_time,
    endTime: r.end_time,
    attendeeName: r.attendee_name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  };
}

export interface FeedSubscription {
  organizationId: string;
  scheduleId: string;
  lastFetchedAt: Date | null;
  scheduleName: string;
  scheduleUpdatedAt: Date;
}

/** What changes whenever the feed's content changes: which bookings it shows and their versions. */
export interface FeedFingerprint {
  count: number;
  /**
   * The sum of a 64-bit hash of each shown booking's id and version: it changes when a booking comes,
   * goes or changes (two different sets colliding: about 2^-64), and needs no sort to compute.
   */
  digest: string;
  lastModified: Date | null;
}

/** A feed's window and cap: the bookings starting in [from, to), at most `limit`, the nearest to `now`. */
export interface FeedWindow {
  from: Date;
  now: Date;
  to: Date;
  limit: number;
}

const windowParams = (w: FeedWindow): unknown[] => [w.from, w.now, w.to, w.limit];

/**
 * The bookings a feed shows ($1 from, $2 now, $3 to, $4 limit; `organization` and `schedule` are SQL
 * expressions): the `limit` starting nearest to now (ties: the earlier, then the smaller id), taken
 * from two ordered scans of bookings_schedule_idx, one forward from now and one back from it, so a
 * schedule with 40,000 bookings in its window reads at most twice the limit.
 */
function nearestBookings(columns: string, organization: string, schedule: string): string {
  const scan = (range: string, order: string) =>
    `(SELECT ${columns} FROM bookings b WHERE b.organization_id = ${organization} AND b.schedule_id = ${schedule} AND ${range} ORDER BY ${order} LIMIT $4)`;
  return `SELECT * FROM (
      ${scan('b.start_time >= $2 AND b.start_time < $3', 'b.start_time, b.id')}
      UNION ALL
      ${scan('b.start_time >= $1 AND b.start_time < $2', 'b.start_time DESC, b.id DESC')}
    ) n ORDER BY abs(extract(epoch FROM n.start_time - $2::timestamptz)), n.start_time, n.id LIMIT $4`;
}

/**
 * The published events on a schedule a feed shows (from, to and limit default to $1, $3 and $4, as
 * in nearestBookings; `organization` and `schedule` are SQL expressions): those starting in the window, the first `limit` by start, read
 * through the view events declare for it (`schedule_events`).
 */
function scheduleEvents(columns: string, organization: string, schedule: string, window = { from: '$1', to: '$3', limit: '$4' }): string {
  return `SELECT ${columns} FROM schedule_events e
           WHERE e.organization_id = ${organization} AND e.schedule_id = ${schedule}
             AND e.starts_at >= ${window.from} AND e.starts_at < ${window.to}
           ORDER BY e.starts_at, e.id LIMIT ${window.limit}`;
}

/** Calendar feeds of schedules, and the bookings they show. */
@Injectable()
export class CalendarFeedRepository {
  constructor(private readonly db: Transactions) {}

  /** Creates the schedule's feed, or replaces its token (the old address stops working at once). */
  async replaceToken(
    organizationId: string,
    scheduleId: string,
    tokenHash: string,
    now: Date,
  ): Promise<Date> {
    const [row] = await this.db.rows<{ created_at: Date }>(
      `INSERT INTO calendar_feeds (organization_id, schedule_id, token_hash, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, schedule_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = EXCLUDED.created_at, last_fetched_at = NULL
       RETURNING created_at`,
      [organizationId, scheduleId, tokenHash, now],
    );
    return row!.created_at;
  }

  async find(
    organizationId: string,
    scheduleId: string,
  ): Promise<{ createdAt: Date; lastFetchedAt: Date | null } | null> {
    const [row] = await this.db.rows<{ created_at: Date; last_fetched_at: Date | null }>(
      'SELECT created_at, last_fetched_at FROM calendar_feeds WHERE organization_id = $1 AND schedule_id = $2',
      [organizationId, scheduleId],
    );
    return row ? { createdAt: row.created_at, lastFetchedAt: row.last_fetched_at } : null;
  }

  async delete(organizationId: string, scheduleId: string): Promise<boolean> {
    return (
      (
        await this.db.rows(
          'DELETE FROM calendar_feeds WHERE organization_id = $1 AND schedule_id = $2 RETURNING schedule_id',
          [organizationId, scheduleId],
        )
      ).length > 0
    );
  }

  /**
   * The feed behind a token with the fingerprint of what it shows, in one statement: a poll that ends
   * in 304 is one round trip (the fingerprint reads bookings_schedule_idx and events_schedule_idx).
   */
  async byToken(
    tokenHash: string,
    window: FeedWindow,
  ): Promise<(FeedSubscription & { fingerprint: FeedFingerprint }) | null> {
    const [row] = await this.db.rows<{
      organization_id: string;
      schedule_id: string;
      name: string;
      updated_at: Date;
      last_fetched_at: Date | null;
      count: string;
      digest: string | null;
      last_modified: Date | null;
    }>(
      `SELECT f.organization_id, f.schedule_id, f.last_fetched_at, s.name, s.updated_at, a.count, a.digest, a.last_modified
         FROM calendar_feeds f
         JOIN schedules s ON s.organization_id = f.organization_id AND s.id = f.schedule_id
         CROSS JOIN LATERAL (
           SELECT count(*) AS count, sum(hashtextextended(c.id::text || ':' || c.version, 0)::numeric)::text AS digest,
                  max(c.updated_at) AS last_modified
             FROM (
               SELECT * FROM (${nearestBookings('b.id, b.start_time, b.version, b.updated_at', 'f.organization_id', 'f.schedule_id')}) nb
               UNION ALL
               -- An event's version is its last change, to the microsecond.
               SELECT * FROM (${scheduleEvents("e.id, e.starts_at, (extract(epoch FROM e.updated_at) * 1000000)::bigint, e.updated_at", 'f.organization_id', 'f.schedule_id')}) ev
             ) c
         ) a
        WHERE f.token_hash = $5`,
      [...windowParams(window), tokenHash],
    );
    return row
      ? {
          organizationId: row.organization_id,
          scheduleId: row.schedule_id,
          lastFetchedAt: row.last_fetched_at,
          scheduleName: row.name,
          scheduleUpdatedAt: row.updated_at,
          fingerprint: {
            count: Number(row.count),
            digest: row.digest ?? '',
            lastModified: row.last_modified,
          },
        }
      : null;
  }

  /** The bookings the feed shows (see nearestBookings), by start. */
  async bookings(organizationId: string, scheduleId: string, window: FeedWindow): Promise<FeedBooking[]> {
    const columns = FEED_COLUMNS.split(', ')
      .map((column) => `b.${column}`)
      .join(', ');
    return (
      await this.db.rows<FeedBookingRow>(
        `SELECT ${FEED_COLUMNS} FROM (${nearestBookings(columns, '$5', '$6')}) c ORDER BY start_time, id`,
        [...windowParams(window), organizationId, scheduleId],
      )
    ).map(toFeedBooking);
  }

  /** The published events on the schedule the feed shows (see scheduleEvents), by start. */
  async events(organizationId: string, scheduleId: string, window: FeedWindow): Promise<FeedEvent[]> {
    return (
      await this.db.rows<{ id: string; title: string; starts_at: Date; ends_at: Date; created_at: Date; updated_at: Date }>(
        scheduleEvents('e.id, e.title, e.starts_at, e.ends_at, e.created_at, e.updated_at', '$4', '$5', { from: '$1', to: '$2', limit: '$3' }),
        [window.from, window.to, window.limit, organizationId, scheduleId],
      )
    ).map((r) => ({ id: r.id, title: r.title, startsAt: r.starts_at, endsAt: r.ends_at, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  async booking(organizationId: string, id: string): Promise<FeedBooking | null> {
    const [row] = await this.db.rows<FeedBookingRow>(
      `SELECT ${FEED_COLUMNS} FROM bookings WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return row ? toFeedBooking(row) : null;
  }

  /** Notes a fetch, at most once a minute per feed (calendar clients poll every few minutes). */
  async touch(organizationId: string, scheduleId: string, now: Date): Promise<void> {
    await this.db.rows(
      `UPDATE calendar_feeds SET last_fetched_at = $3
        WHERE organization_id = $1 AND schedule_id = $2 AND (last_fetched_at IS NULL OR last_fetched_at < $3::timestamptz - interval '1 minute')`,
      [organizationId, scheduleId, now],
    );
  }
}
