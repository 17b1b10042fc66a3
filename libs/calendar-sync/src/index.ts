import type { MigrationClass } from '@almanac/shared';
import { CalendarSyncInit1763700004000 } from './lib/infrastructure/migrations/1763700004000-calendar-sync-init';
import { CalendarSyncDistributionKeys1764070000400 } from './lib/infrastructure/migrations/1764070000400-distribution-keys';
import { CalendarSyncs1764080000000 } from './lib/infrastructure/migrations/1764080000000-calendar-syncs';
import { CalendarIntegrationScheduleAndClaim1764160000000 } from './lib/infrastructure/migrations/1764160000000-integration-schedule-and-claim';

export { CalendarSyncModule } from './lib/calendar-sync.module';

/** This context's migrations, in order; the app runs them with every other context's. */
export const calendarSyncMigrations: MigrationClass[] = [
  CalendarSyncInit1763700004000,
  CalendarSyncDistributionKeys1764070000400,
  CalendarSyncs1764080000000,
  CalendarIntegrationScheduleAndClaim1764160000000,
];
