import { fieldTable } from '@almanac/shared';
import { SCHEDULE_FIELDS } from '../domain/schedule';

/** `schedules`: every column is its field's snake_case name. */
export const SCHEDULE_TABLE = fieldTable('schedules', SCHEDULE_FIELDS);
