import type { MigrationClass } from '@almanac/shared';

export { SchedulingModule } from './lib/scheduling.module';

/** This context's migrations, in order; the app runs them with every other context's. */
export const schedulingMigrations: MigrationClass[] = [];
