import { Injectable } from '@nestjs/common';
import { AppConfig, ListTotal, Page, pageWithTotal, PG_CHECK_VIOLATION, PG_UNIQUE_VIOLATION, pgErrorOf, Transactions } from '@almanac/shared';
import { AlreadyRegisteredError, EventFullError } from '../domain/event-errors';
import { Registration, RegistrationStatus } from '../domain/registration';
import { REGISTRATION_TABLE } from './registration.table';

type RegistrationRow = Record<string, unknown>;

const COLUMNS = REGISTRATION_TABLE.select('r');
const toDomain = (row: RegistrationRow): Registration => REGISTRATION_TABLE.fromRow(row);

const REGISTRATION_BY_ID = `SELECT ${COLUMNS} FROM event_registrations r WHERE r.organization_id = $1 AND r.event_id = $2 AND r.id = $3`;

/**
 * Registrations in PostgreSQL; the trigger on this table keeps `events.registration_count`.
 * Statements run in the ambient unit of work (`Transactions`), or on their own.
 */
@Injectable()
export class RegistrationsRepository {
  constructor(
    private readonly db: Transactions,
    private readonly config: AppConfig,
  ) {}

  /**
   * The database has the last word: the partial unique index refuses a second active registration for
   * an e-mail, and the CHECK on the event's counter refuses a registration beyond `slots`.
   */
  async insert(registration: Registration): Promise<void> {
    const query = REGISTRATION_TABLE.insert(registration);
    try {
      await this.db.rows(query.text, query.values);
    } catch (error) {
      const pg = pgErrorOf(error);
      if (pg.code === PG_UNIQUE_VIOLATION && pg.constraint === 'event_registrations_active_email_key') {
        throw new AlreadyRegisteredError();
      }
      if (pg.code === PG_CHECK_VIOLATION && pg.constraint === 'events_registrations_within_slots') {
        throw new EventFullError();
      }
      throw error;
    }
  }

  async findById(organizationId: string, eventId: string, id: string): Promise<Registration | null> {
    const rows = await this.db.rows<RegistrationRow>(REGISTRATION_BY_ID, [organizationId, eventId, id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  /** The registration as it is now, its row locked until the transaction ends (a write's precondition). */
  async lockById(organizationId: string, eventId: string, id: string): Promise<Registration | null> {
    const rows = await this.db.rowsInTransaction<RegistrationRow>(`${REGISTRATION_BY_ID} FOR UPDATE OF r`, [organizationId, eventId, id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  /**
   * Cancels an active or waiting registration (compare-and-swap on the status); null when it was
   * neither. Returns the status it had.
   */
  async cancel(
    organizationId: string,
    eventId: string,
    id: string,
    now: Date,
  ): Promise<{ registration: Registration; was: RegistrationStatus } | null> {
    const rows = await this.db.rows<RegistrationRow & { was: RegistrationStatus }>(
      `UPDATE event_registrations r SET status = 'cancelled', cancelled_at = $4
         FROM event_registrations before
        WHERE r.organization_id = $1 AND r.event_id = $2 AND r.id = $3 AND r.status IN ('active', 'waitlisted')
          AND before.organization_id = r.organization_id AND before.id = r.id
        RETURNING ${COLUMNS}, before.status AS was`,
      [organizationId, eventId, id, now],
    );
    return rows[0] ? { registration: toDomain(rows[0]), was: rows[0].was } : null;
  }

  /**
   * Moves the oldest waiting registrations into the places free now (all of them when the event is
   * unlimited). Runs under the event's row lock, and the CHECK on the event's counter still refuses
   * any excess.
   */
  async promote(organizationId: string, eventId: string): Promise<Registration[]> {
    const rows = await this.db.rows<RegistrationRow>(
      `UPDATE event_registrations r SET status = 'active'
        WHERE r.organization_id = $1 AND r.id IN (
          SELECT w.id FROM event_registrations w
           WHERE w.organization_id = $1 AND w.event_id = $2 AND w.status = 'waitlisted'
           ORDER BY w.created_at, w.id
           LIMIT (SELECT CASE WHEN e.slots IS NULL THEN NULL ELSE greatest(e.slots - e.registration_count, 0) END
                    FROM events e WHERE e.organization_id = $1 AND e.id = $2)
           FOR UPDATE)
        RETURNING ${REGISTRATION_TABLE.select('r', { position: 'NULL::bigint' })}`,
      [organizationId, eventId],
    );
    return rows
      .map(toDomain)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  /** A page of an event's registrations by created_at, id, and how many match, counted up to the cap (see pageWithTotal). */
  async list(
    organizationId: string,
    eventId: string,
    status: RegistrationStatus | undefined,
    page: Page,
  ): Promise<{ registrations: Registration[]; total: ListTotal }> {
    const params: unknown[] = [organizationId, eventId];
    let conditions = 'r.organization_id = $1 AND r.event_id = $2';
    if (status !== undefined) {
      params.push(status);
      conditions += ` AND r.status = $${params.length}`;
    }
    const { rows, total } = await pageWithTotal<RegistrationRow>(
      (sql, values) => this.db.rows(sql, values),
      { columns: COLUMNS, from: `FROM event_registrations r WHERE ${conditions}`, orderBy: 'r.created_at, r.id' },
      params,
      page,
      this.config.listCountCap,
    );
    return { registrations: rows.map(toDomain), total };
  }
}
