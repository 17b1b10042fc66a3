import type { Registration } from '../domain/registration';
import { COLUMNS } from './event-list-query';

// Framework-free on purpose, like event-list-query.ts: the bench floor runs these statements too.

/**
 * One event of the organization; `lock` takes the row lock that serializes every change of the event
 * and of its registrations.
 */
export function eventByIdQuery(organizationId: string, id: string, lock: boolean): { text: string; values: unknown[] } {
  return {
    text: `SELECT ${COLUMNS} FROM events e WHERE e.organization_id = $1 AND e.id = $2${lock ? ' FOR UPDATE' : ''}`,
    values: [organizationId, id],
  };
}

/** A new registration (the trigger on the table keeps `events.registration_count`). */
export function registrationInsertQuery(r: Registration): { text: string; values: unknown[] } {
  return {
    text: `INSERT INTO event_registrations (id, organization_id, event_id, name, email, status, created_at, cancelled_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    values: [r.id, r.organizationId, r.eventId, r.name, r.email, r.status, r.createdAt, r.cancelledAt],
  };
}
