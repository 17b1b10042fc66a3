import { fieldTable } from '@almanac/shared';
import { EVENT_TYPE_FIELDS } from '../domain/event-type';

/** `event_types`: every column is its field's snake_case name. */
export const EVENT_TYPE_TABLE = fieldTable('event_types', EVENT_TYPE_FIELDS);
