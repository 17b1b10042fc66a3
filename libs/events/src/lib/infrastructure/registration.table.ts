import { fieldTable } from '@almanac/shared';
import { REGISTRATION_FIELDS } from '../domain/registration';

/**
 * `event_registrations`. A waiting registration's place is counted, not stored, so it stays dense
 * whoever leaves the list: the waiting registrations of the event up to it in (created_at, id)
 * order, on the partial index.
 */
export const REGISTRATION_TABLE = fieldTable('event_registrations', REGISTRATION_FIELDS, {
  position: {
    readOnly: true,
    read: (_column, alias = 'event_registrations') => `CASE WHEN ${alias}.status = 'waitlisted' THEN (
    SELECT count(*) FROM event_registrations w
     WHERE w.organization_id = ${alias}.organization_id AND w.event_id = ${alias}.event_id AND w.status = 'waitlisted'
       AND (w.created_at, w.id) <= (${alias}.created_at, ${alias}.id)) END`,
    decode: (count: string) => Number(count),
  },
});
