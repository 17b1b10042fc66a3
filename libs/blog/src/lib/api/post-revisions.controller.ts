import { Get, HttpCode, Param, Post as HttpPost, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPrincipal, Principal, RequireScope, V1Controller } from '@almanac/identity';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  Conditional,
  IfMatch,
  IfMatchHeader,
  ListResponse,
  PageQuery,
  pageOf,
  resolvePage,
  UuidParam,
} from '@almanac/shared';
import { PostRevisionsService } from '../application/post-revisions.service';
import { MAX_REVISIONS_PER_POST } from '../domain/post-revision';
import { Post, postBody } from './dto/post.response';
import { PostRevisionListItem, PostRevisionResponse, toRevision, toRevisionListItem } from './dto/post-revision.response';

const POST = UuidParam('Post');
const REVISION = UuidParam('Revision');

/** `/posts/{id}/revisions`: a post's history, and restoring an earlier version. */
@V1Controller('posts', 'posts')
export class PostRevisionsController {
  constructor(private readonly revisions: PostRevisionsService) {}

  @Get(':id/revisions')
  @RequireScope('posts:read')
  @ApiOperation({
    summary: "A post's revisions",
    description:
      'Newest first, without content. The create and every write that changes a stored field of the post (a PATCH, a restore, ' +
      `the scheduled publication) each record one revision; the newest ${MAX_REVISIONS_PER_POST} are kept.`,
  })
  @ApiListResponse(PostRevisionListItem)
  @ApiProblems(400, 403, 404)
  async list(@Principal() principal: ApiPrincipal, @Param('id', POST) id: string, @Query() query: PageQuery): Promise<ListResponse<PostRevisionListItem>> {
    const page = resolvePage(query);
    const { items, total } = await this.revisions.list(principal.organizationId, id, page);
    return pageOf(items.map(toRevisionListItem), total, page);
  }

  @Get(':id/revisions/:revisionId')
  @RequireScope('posts:read')
  @ApiOperation({ summary: 'One revision, with its content', description: 'The title, slug, excerpt, content, status, featured image, category and tags as that write left them.' })
  @ApiDataResponse(PostRevisionResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', POST) id: string,
    @Param('revisionId', REVISION) revisionId: string,
  ): Promise<{ data: PostRevisionResponse }> {
    return { data: toRevision(await this.revisions.get(principal.organizationId, id, revisionId)) };
  }

  @HttpPost(':id/revisions/:revisionId/restore')
  @HttpCode(200)
  @Conditional()
  @RequireScope('posts:write')
  @ApiOperation({
    summary: 'Restore a revision',
    description:
      "The post takes back the revision's title, excerpt, content and featured_image_url; its slug, status, dates, category " +
      'and tags stay. Recorded as a new revision and announced as post.updated, like a PATCH; honours If-Match like a PATCH.',
  })
  @ApiDataResponse(Post, 200, 'The post as restored')
  @ApiProblems(403, 404, 409)
  async restore(
    @Principal() principal: ApiPrincipal,
    @Param('id', POST) id: string,
    @Param('revisionId', REVISION) revisionId: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: Post }> {
    const actor = { organizationId: principal.organizationId, userId: principal.userId };
    return postBody(await this.revisions.restore(actor, id, revisionId, ifMatch.of(postBody)));
  }
}
