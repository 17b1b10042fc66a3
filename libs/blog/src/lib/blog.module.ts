import { Module } from '@nestjs/common';
import { declareScopes } from '@almanac/identity';
import { PostCategoriesController } from './api/post-categories.controller';
import { PostTagsController } from './api/post-tags.controller';
import { PostsController } from './api/posts.controller';
import { PostRevisionsController } from './api/post-revisions.controller';
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

@Module({
  // Order matters: Express tries routes in registration order, and `/posts/categories` and
  // `/posts/tags` must be matched before `/posts/:id` would take the word for an id.
  controllers: [PostCategoriesController, PostTagsController, PostsController, PostRevisionsController],
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
    CategoriesService,
    TagsService,
    ScheduledPostPublisher,
  ],
  exports: [ScheduledPostPublisher],
})
export class BlogModule {}
