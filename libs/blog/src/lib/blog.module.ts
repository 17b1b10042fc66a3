import { Module } from '@nestjs/common';
import { declareEventTypes, declareScopes } from '@almanac/identity';
import { PostCategoriesController } from './api/post-categories.controller';
import { PostTagsController } from './api/post-tags.controller';
import { PostsController } from './api/posts.controller';
import { PostRevisionsController } from './api/post-revisions.controller';
import { PostPreviewLinksController } from './api/post-preview-links.controller';
import { PublicPostsController } from './api/public-posts.controller';
import { PostFeedService } from './application/post-feed.service';
import { PostPreviewsService } from './application/post-previews.service';
import { PostFeedRepository } from './infrastructure/post-feed.repository';
import { PostPreviewLinkRepository } from './infrastructure/post-preview-link.repository';
import { PostRevisionsService } from './application/post-revisions.service';
import { PostRevisionRepository } from './infrastructure/post-revision.repository';
import { PostsService } from './application/posts.service';
import { ScheduledPostPublisher } from './application/scheduled-post-publisher';
import { CategoriesService, TagsService } from './application/terms.service';
import { PostRepository } from './infrastructure/post.repository';
import { SearchRankingCache } from './infrastructure/search-ranking-cache';
import { Clock } from '@almanac/shared';

/** The scopes this context's routes require (identity keeps the vocabulary of API keys). */
declareScopes('blog', ['posts:read', 'posts:write']);

/** The changes this context announces through the outbox, and the scope that reads each. */
declareEventTypes('blog', {
  'post.created': 'posts:read',
  'post.updated': 'posts:read',
  'post.published': 'posts:read',
  'post.deleted': 'posts:read',
});

@Module({
  // Order matters: Express tries routes in registration order, and `/posts/categories` and
  // `/posts/tags` must be matched before `/posts/:id` would take the word for an id.
  controllers: [PostCategoriesController, PostTagsController, PostsController, PostRevisionsController, PostPreviewLinksController, PublicPostsController],
  providers: [
    {
      provide: SearchRankingCache,
      useFactory: (clock: Clock) => new SearchRankingCache(undefined, () => clock.now().getTime()),
      inject: [Clock],
    },
    PostRepository,
    PostRevisionRepository,
    PostsService,
    PostRevisionsService,
    PostFeedRepository,
    PostFeedService,
    PostPreviewLinkRepository,
    PostPreviewsService,
    CategoriesService,
    TagsService,
    ScheduledPostPublisher,
  ],
  exports: [ScheduledPostPublisher],
})
export class BlogModule {}
