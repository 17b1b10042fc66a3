import { Injectable } from '@nestjs/common';
import { AppConfig, ListTotal, Page, PG_UNIQUE_VIOLATION, pgErrorOf, slugBaseLock, SlugTakenError, SqlParams, Transactions } from '@almanac/shared';
import type { EventType, EventTypeChanges } from '../domain/event-type';
import { EVENT_TYPE_TABLE } from './event-type.table';
import { likeLiteral, pageWithTotal } from './sql';

const COLUMNS = EVENT_TYPE_TABLE.select();
const toEventType = (row: Record<string, unknown>): EventType => EVENT_TYPE_TABLE.fromRow(row);

function translate(error: unknown, slug: string | undefined): unknown {
  const { code, constraint } = pgErrorOf(error);
  if (code === PG_UNIQUE_VIOLATION && constraint === 'event_types_slug_key')
    return new SlugTakenError(slug ?? '');
  return error;
}

/** Event types in PostgreSQL; statements run in the ambient unit of work (`Transactions`), or on their own. */
@Injectable()
export class EventTypeRepository {
  constructor(
    private readonly db: Transactions,
    private readonly config: AppConfig,
  ) {}

  /** Throws `SlugTakenError` when the organization already has the slug. */
  async insert(eventType: EventType): Promise<EventType> {
    const insert = EVENT_TYPE_TABLE.insert(eventType);
    try {
      const rows = await this.db.rows<Record<string, unknown>>(`${insert.text} RETURNING ${COLUMNS}`, insert.values);
      return toEventType(rows[0]!);
    } catch (error) {
      throw translate(error, eventType.slug);
    }
  }

  /** Serializes slug generation from one base in one organization until the transaction ends. */
  async lockSlugBase(organizationId: string, base: string): Promise<void> {
    const lock = slugBaseLock('event_types', organizationId, base);
    await this.db.rowsInTransaction(lock.text, lock.values);
  }

  /** Slugs of the organization equal to `base` or of the form `base-…` (candidates for `firstFreeSlug`). */
  async slugsLike(organizationId: string, base: string): Promise<string[]> {
    const rows = await this.db.rows<{ slug: string }>(
      `SELECT slug FROM event_types WHERE organization_id = $1 AND (slug = $2 OR slug LIKE $3 ESCAPE '\\')`,
      [organizationId, base, `${likeLiteral(base)}-%`],
    );
    return rows.map((r) => r.slug);
  }

  async findById(organizationId: string, id: string): Promise<EventType | null> {
    const rows = await this.db.rows<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM event_types WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ? toEventType(rows[0]) : null;
  }

  /** The event type as it is now, its row locked until the transaction ends (a write's precondition). */
  async lockById(organizationId: string, id: string): Promise<EventType | null> {
    const rows = await this.db.rowsInTransaction<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM event_types WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    return rows[0] ? toEventType(rows[0]) : null;
  }

  async list(
    organizationId: string,
    active: boolean,
    page: Page,
  ): Promise<{ items: EventType[]; total: ListTotal }> {
    const { rows, total } = await pageWithTotal<Record<string, unknown>>(
      (sql, params) => this.db.rows(sql, params),
      { columns: COLUMNS, from: 'FROM event_types WHERE organization_id = $1 AND is_active = $2', orderBy: 'created_at, id' },
      [organizationId, active],
      page,
      this.config.listCountCap,
    );
    return { items: rows.map(toEventType), total };
  }

  /** Throws `SlugTakenError` when the new slug is taken. */
  async update(
    organizationId: string,
    id: string,
    changes: EventTypeChanges,
  ): Promise<EventType | null> {
    const p = new SqlParams();
    const set = EVENT_TYPE_TABLE.set(p, changes);
    try {
      const rows = await this.db.rows<Record<string, unknown>>(
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
  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.rows(
      'DELETE FROM event_types WHERE organization_id = $1 AND id = $2 RETURNING id',
      [organizationId, id],
    );
    return rows.length > 0;
  }
}
