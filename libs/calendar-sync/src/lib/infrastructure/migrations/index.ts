/** This context's migrations, one line each (TypeORM runs every context's in the order of their timestamps). */
export { CalendarSyncInit1763700004000 } from './1763700004000-calendar-sync-init';
export { CalendarSyncDistributionKeys1764070000400 } from './1764070000400-distribution-keys';
export { CalendarSyncs1764080000000 } from './1764080000000-calendar-syncs';
export { CalendarIntegrationScheduleAndClaim1764160000000 } from './1764160000000-integration-schedule-and-claim';
