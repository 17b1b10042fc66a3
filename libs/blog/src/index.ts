import type { MigrationClass } from '@almanac/shared';
import { BlogInit1763700003000 } from './lib/infrastructure/migrations/1763700003000-blog-init';
import { PostsNarrowRows1763700003100 } from './lib/infrastructure/migrations/1763700003100-posts-narrow-rows';
import { TagLinksByDate1763700003200 } from './lib/infrastructure/migrations/1763700003200-tag-links-by-date';
import { BlogDistributionKeys1764070000300 } from './lib/infrastructure/migrations/1764070000300-distribution-keys';
import { PostRevisionsAndPreviews1764230000100 } from './lib/infrastructure/migrations/1764230000100-post-revisions-and-previews';

export { BlogModule } from './lib/blog.module';
/** The scheduled-post publisher: operations and tests may run or stop it. */
export { ScheduledPostPublisher } from './lib/application/scheduled-post-publisher';
/** Broad searches' rankings, kept briefly (see the class); tests and operations reach the app's instance. */
export { SearchRankingCache } from './lib/infrastructure/search-ranking-cache';
export { BlogInit1763700003000, PostsNarrowRows1763700003100, TagLinksByDate1763700003200 };

/** This context's migrations, in order; the app runs them with every other context's. */
export const blogMigrations: MigrationClass[] = [BlogInit1763700003000, PostsNarrowRows1763700003100, TagLinksByDate1763700003200, BlogDistributionKeys1764070000300, PostRevisionsAndPreviews1764230000100];
