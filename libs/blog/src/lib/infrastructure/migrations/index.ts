/** This context's migrations, one line each (TypeORM runs every context's in the order of their timestamps). */
export { BlogInit1763700003000 } from './1763700003000-blog-init';
export { PostsNarrowRows1763700003100 } from './1763700003100-posts-narrow-rows';
export { TagLinksByDate1763700003200 } from './1763700003200-tag-links-by-date';
export { BlogDistributionKeys1764070000300 } from './1764070000300-distribution-keys';
export { PostRevisionsAndPreviews1764230000100 } from './1764230000100-post-revisions-and-previews';
