import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type FixtureName = 'google' | 'outlook' | 'apple';

/** iCalendar feeds in the shapes Google Calendar, Outlook/Exchange and Apple Calendar publish. */
export function readFixture(name: FixtureName): string {
  return readFileSync(join(__dirname, 'fixtures', `${name}.ics`), 'utf8');
}

export const FIXTURE_RANGE = { start: new Date('2027-03-01T00:00:00Z'), end: new Date('2027-04-15T00:00:00Z') };
