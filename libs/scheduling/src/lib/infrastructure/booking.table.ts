import { fieldTable } from '@almanac/shared';
import { BOOKING_FIELDS } from '../domain/booking';

/** `bookings`: every column is its field's snake_case name. */
export const BOOKING_TABLE = fieldTable('bookings', BOOKING_FIELDS);
