import { fieldTable } from '@almanac/shared';
import { EVENT_FIELDS } from '../domain/event';
import { moneyFromDecimal, moneyToDecimal } from '../domain/money';

/** `events`: money is exact decimal text both ways; the counts are kept by the registrations' trigger. */
export const EVENT_TABLE = fieldTable('events', EVENT_FIELDS, {
  cost: { read: (column) => `${column}::text`, encode: moneyToDecimal, decode: moneyFromDecimal },
  registrationCount: { readOnly: true },
  waitlistCount: { readOnly: true },
});
