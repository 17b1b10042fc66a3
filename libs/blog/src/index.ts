import type { MigrationClass } from '@almanac/shared';

export { BlogModule } from './lib/blog.module';

/** This context's migrations, in order; the app runs them with every other context's. */
export const blogMigrations: MigrationClass[] = [];
