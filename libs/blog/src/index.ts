import type { MigrationClass } from '@almanac/shared';
import * as migrations from './lib/infrastructure/migrations';

export { BlogModule } from './lib/blog.module';
/** The scheduled-post publisher: operations and tests may run or stop it. */
export { ScheduledPostPublisher } from './lib/application/scheduled-post-publisher';
/** Broad searches' rankings, kept briefly (see the class); tests and operations reach the app's instance. */
export { SearchRankingCache } from './lib/infrastructure/search-ranking-cache';

/** This context's migrations; the app runs them with every other context's. */
export const blogMigrations: MigrationClass[] = Object.values(migrations);
