import { blogMigrations } from '@almanac/blog';
import { calendarSyncMigrations } from '@almanac/calendar-sync';
import { eventsMigrations } from '@almanac/events';
import { identityMigrations } from '@almanac/identity';
import { schedulingMigrations } from '@almanac/scheduling';
import { webhooksMigrations } from '@almanac/webhooks';
import { MigrationClass, SharedAuditLog1764300000100, SharedInit1763700000000, SharedOutbox1764000000000 } from '@almanac/shared';

/** Every context's migrations; TypeORM orders them by the timestamp in their names. */
export const ALL_MIGRATIONS: MigrationClass[] = [
  SharedInit1763700000000,
  ...identityMigrations,
  ...schedulingMigrations,
  ...eventsMigrations,
  ...blogMigrations,
  ...calendarSyncMigrations,
  SharedOutbox1764000000000,
  ...webhooksMigrations,
  SharedAuditLog1764300000100,
];
