import type { MigrationClass } from '@almanac/shared';

export { EventsModule } from './lib/events.module';

/** This context's migrations, in order; the app runs them with every other context's. */
export const eventsMigrations: MigrationClass[] = [];
