import type { MigrationClass } from '@almanac/shared';

export { CalendarSyncModule } from './lib/calendar-sync.module';

/** This context's migrations, in order; the app runs them with every other context's. */
export const calendarSyncMigrations: MigrationClass[] = [];
