import { Injectable } from '@nestjs/common';
import { lockSlugBase, PG_UNIQUE_VIOLATION, pgErrorOf, SlugTakenError } from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import type { EventType } from '../domain/event-type';
import type { LocationType } from '../domain/location-type';
import type { BookingRules } from '../domain/booking-rules';
import { likeLiteral, pageWithTotal, Params, rowsOf, setClause } from './sql';

/** The booking rules' columns, as every query that reads them returns them. */
export type BookingRulesRow = Pick<
  EventTypeRow,
  'duration' | 'buffer_before' | 'buffer_after' | 'minimum_notice' | 'slot_interval' | 'booking_window_days' | 'max_bookings_per_day'
>;

/** An event type's booking rules from its row (one mapping for every reader of them). */
export function toBookingRules(row: BookingRulesRow): BookingRules {
  return {
    duration: row.duration,
    bufferBefore: row.buffer_before,
    bufferAfter: row.buffer_after,
    minimumNotice: row.minimum_notice,
    slotInterval: row.slot_interval,
    bookingWindowDays: row.booking_window_days,
    maxBookingsPerDay: row.max_bookings_per_day,
  };
}

export interface EventTypeRow {
  id: string;
  organization_id: string;
  title: string;
  slug: string;
  description: string | null;
  duration: number;
  location_type: LocationType;
  location_details: string | null;
  color: string | null;
  requires_approval: boolean;
  is_active: boolean;
  buffer_before: number;
  buffer_after: number;
  minimum_notice: number;
  slot_interval: number | null;
  booking_window_days: number | null;
  max_bookings_per_day: number | null;
  created_at: Date;
  updated_at: Date;
  total?: string;
}

const COLUMNS =
  'id, organization_id, title, slug, description, duration, location_type, location_details, color, ' +
  'requires_approval, is_active, buffer_before, buffer_after, minimum_notice, slot_interval, booking_window_days, ' +
  'max_bookings_per_day, created_at, updated_at';

export type EventTypeChanges = Partial<
  Pick<
    EventType,
    | 'title'
    | 'slug'
    | 'description'
    | 'duration'
    | 'locationType'
    | 'locationDetails'
    | 'color'
    | 'requiresApproval'
    | 'isActive'
    | 'bufferBefore'
    | 'bufferAfter'
    | 'minimumNotice'
    | 'slotInterval'
    | 'bookingWindowDays'
    | 'maxBookingsPerDay'
  >
> & { updatedAt: Date };

const CHANGE_COLUMNS: Readonly<Record<keyof EventTypeChanges, string>> = {
  title: 'title',
  slug: 'slug',
  description: 'description',
  duration: 'duration',
  locationType: 'location_type',
  locationDetails: 'location_details',
  color: 'color',
  requiresApproval: 'requires_approval',
  isActive: 'is_active',
  bufferBefore: 'buffer_before',
  bufferAfter: 'buffer_after',
  minimumNotice: 'minimum_notice',
  slotInterval: 'slot_interval',
  bookingWindowDays: 'booking_window_days',
  maxBookingsPerDay: 'max_bookings_per_day',
  updatedAt: 'updated_at',
};

function toEventType(row: EventTypeRow): EventType {
  return {
    id: row.id,
    organizationId: row.organization_id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    locationType: row.location_type,
    locationDetails: row.location_details,
    color: row.color,
    requiresApproval: row.requires_approval,
    isActive: row.is_active,
    ...toBookingRules(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function translate(error: unknown, slug: string | undefined): unknown {
  const { code, constraint } = pgErrorOf(error);
  if (code === PG_UNIQUE_VIOLATION && constraint === 'event_types_slug_key')
    return new SlugTakenError(slug ?? '');
  return error;
}

@Injectable()
export class EventTypeRepository {
  /** Throws `SlugTakenError` when the organization already has the slug. */
  async insert(em: EntityManager, eventType: EventType): Promise<EventType> {
    try {
      const rows = await rowsOf<EventTypeRow>(
        em,
        `INSERT INTO event_types (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
         RETURNING ${COLUMNS}`,
        [
          eventType.id,
          eventType.organizationId,
          eventType.title,
          eventType.slug,
          eventType.description,
          eventType.duration,
          eventType.locationType,
          eventType.locationDetails,
          eventType.color,
          eventType.requiresApproval,
          eventType.isActive,
          eventType.bufferBefore,
          eventType.bufferAfter,
          eventType.minimumNotice,
          eventType.slotInterval,
          eventType.bookingWindowDays,
          eventType.maxBookingsPerDay,
          eventType.createdAt,
          eventType.updatedAt,
        ],
      );
      return toEventType(rows[0]!);
    } catch (error) {
      throw translate(error, eventType.slug);
    }
  }

  /** Serializes slug generation from one base in one organization until the transaction ends. */
  lockSlugBase(em: EntityManager, organizationId: string, base: string): Promise<void> {
    return lockSlugBase(em, 'event_types', organizationId, base);
  }

  /** Slugs of the organization equal to `base` or of the form `base-…` (candidates for `firstFreeSlug`). */
  async slugsLike(em: EntityManager, organizationId: string, base: string): Promise<string[]> {
    const rows = await rowsOf<{ slug: string }>(
      em,
      `SELECT slug FROM event_types WHERE organization_id = $1 AND (slug = $2 OR slug LIKE $3 ESCAPE '\\')`,
      [organizationId, base, `${likeLiteral(base)}-%`],
    );
    return rows.map((r) => r.slug);
  }

  async findById(em: EntityManager, organizationId: string, id: string): Promise<EventType | null> {
    const rows = await rowsOf<EventTypeRow>(
      em,
      `SELECT ${COLUMNS} FROM event_types WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ? toEventType(rows[0]) : null;
  }

  async list(
    em: EntityManager,
    organizationId: string,
    active: boolean,
    page: { limit: number; offset: number },
  ): Promise<{ items: EventType[]; total: number }> {
    const { rows, total } = await pageWithTotal<EventTypeRow>(
      em,
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM event_types
       WHERE organization_id = $1 AND is_active = $2 ORDER BY created_at, id LIMIT $3 OFFSET $4`,
      'SELECT count(*) AS total FROM event_types WHERE organization_id = $1 AND is_active = $2',
      [organizationId, active, page.limit, page.offset],
      page.offset,
    );
    return { items: rows.map(toEventType), total };
  }

  /** Throws `SlugTakenError` when the new slug is taken. */
  async update(
    em: EntityManager,
    organizationId: string,
    id: string,
    changes: EventTypeChanges,
  ): Promise<EventType | null> {
    const p = new Params();
    const set = setClause(p, changes, CHANGE_COLUMNS);
    try {
      const rows = await rowsOf<EventTypeRow>(
        em,
        `UPDATE event_types SET ${set} WHERE organization_id = ${p.add(organizationId)} AND id = ${p.add(id)}
         RETURNING ${COLUMNS}`,
        p.values,
      );
      return rows[0] ? toEventType(rows[0]) : null;
    } catch (error) {
      throw translate(error, changes.slug);
    }
  }

  /** Bookings of the type keep their history: the foreign key sets their `event_type_id` to null. */
  async delete(em: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const rows = await rowsOf(
      em,
      'DELETE FROM event_types WHERE organization_id = $1 AND id = $2 RETURNING id',
      [organizationId, id],
    );
    return rows.length > 0;
  }
}
