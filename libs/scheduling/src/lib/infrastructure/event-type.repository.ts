import { Injectable } from '@nestjs/common';
import { lockSlugBase, PG_UNIQUE_VIOLATION, pgErrorOf, SlugTakenError, SqlParams } from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import type { EventType, EventTypeChanges } from '../domain/event-type';
import { EVENT_TYPE_TABLE } from './event-type.table';
import { likeLiteral, pageWithTotal, rowsOf } from './sql';

const COLUMNS = EVENT_TYPE_TABLE.select();
const toEventType = (row: Record<string, unknown>): EventType => EVENT_TYPE_TABLE.fromRow(row);

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
    const insert = EVENT_TYPE_TABLE.insert(eventType);
    try {
      const rows = await rowsOf<Record<string, unknown>>(em, `${insert.text} RETURNING ${COLUMNS}`, insert.values);
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
    const rows = await rowsOf<Record<string, unknown>>(
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
    const { rows, total } = await pageWithTotal<Record<string, unknown> & { total?: string }>(
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
    const p = new SqlParams();
    const set = EVENT_TYPE_TABLE.set(p, changes);
    try {
      const rows = await rowsOf<Record<string, unknown>>(
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
