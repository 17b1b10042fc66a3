import type { MigrationClass } from '@almanac/shared';
import * as migrations from './lib/infrastructure/migrations';

export { CalendarSyncModule } from './lib/calendar-sync.module';

/** This context's migrations; the app runs them with every other context's. */
export const calendarSyncMigrations: MigrationClass[] = Object.values(migrations);
