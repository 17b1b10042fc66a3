import { Body, Delete, Get, HttpCode, Param, Patch, Post as HttpPost, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPrincipal, assertVisible, OpenToPublishableKeys, Principal, RequireScope, V1Controller, visibleStatusFilter } from '@almanac/identity';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  Conditional,
  IfMatch,
  IfMatchHeader,
  ListResponse,
  pageOf,
  resolvePage,
  UuidParam,
} from '@almanac/shared';
import type { Response } from 'express';
import { CreatePostCommand, PostsService, UpdatePostCommand } from '../application/posts.service';
import { POST_FIELDS } from '../domain/post';
import { ListPostsQuery } from './dto/list-posts.query';
import { CreatePostDto, UpdatePostDto } from './dto/post-input.dto';
import { BlogDeletion, Post, postBody, PostListItem, toPost, toPostListItem } from './dto/post.response';

export const DEFAULT_POST_LIMIT = 20;

/** The body's fields by their domain names; content blocks are validated block by block and kept exactly as sent. */
function toCommand(dto: UpdatePostDto): UpdatePostCommand {
  return { ...POST_FIELDS.fromWire(dto), tagIds: dto.tag_ids };
}

@V1Controller('posts', 'posts')
export class PostsController {
  constructor(private readonly posts: PostsService) {}

  @Get()
  @RequireScope('posts:read')
  @OpenToPublishableKeys()
  @ApiOperation({
    summary: 'List posts',
    description:
      'Filters AND together. Ordered by `order_by` (nulls last) then id. A publishable key lists published posts only ' +
      '(a scheduled post once due); with it, any other `status` lists nothing.',
  })
  @ApiListResponse(PostListItem)
  @ApiProblems(400, 403)
  async list(@Principal() principal: ApiPrincipal, @Query() query: ListPostsQuery): Promise<ListResponse<PostListItem>> {
    const page = resolvePage(query, DEFAULT_POST_LIMIT);
    const status = visibleStatusFilter(principal, query.status, 'published');
    if (status === null) return pageOf([], 0, page);
    const search = query.search !== undefined && query.search.trim() !== '' ? query.search : undefined;
    const { posts, total } = await this.posts.list({
      organizationId: principal.organizationId,
      status,
      categoryId: query.category_id,
      categorySlug: query.category,
      tagId: query.tag_id,
      tagSlug: query.tag,
      authorId: query.author_id,
      featuredOnly: query.featured === true,
      search,
      orderBy: query.order_by,
      order: query.order ?? 'desc',
      limit: page.limit,
      offset: page.offset,
    });
    return pageOf(posts.map(toPostListItem), total, page);
  }

  @Get(':id')
  @Conditional()
  @RequireScope('posts:read')
  @OpenToPublishableKeys()
  @ApiOperation({ summary: 'Get a post with its content', description: 'A publishable key sees published posts only (a scheduled post once due); any other is 404 to it.' })
  @ApiDataResponse(Post)
  @ApiProblems(403, 404)
  async get(@Principal() principal: ApiPrincipal, @Param('id', UuidParam('Post')) id: string): Promise<{ data: Post }> {
    const post = await this.posts.get(principal.organizationId, id);
    assertVisible(principal, post.status, 'published', 'Post');
    return postBody(post);
  }

  @HttpPost()
  @RequireScope('posts:write')
  @ApiOperation({
    summary: 'Create a post',
    description: "Status defaults to draft, is_featured to false, author_id to the API key's user.",
  })
  @ApiDataResponse(Post, 201, 'The created post')
  @ApiProblems(400, 403, 409, 413, 415, 422)
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreatePostDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: Post }> {
    const post = await this.posts.create(
      { organizationId: principal.organizationId, userId: principal.userId },
      toCommand(body) as CreatePostCommand,
    );
    res.setHeader('Location', `/api/v1/posts/${post.id}`);
    return { data: toPost(post) };
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('posts:write')
  @ApiOperation({
    summary: 'Update a post',
    description: 'Any field of the create operation; absent fields are unchanged, null clears a nullable one.',
  })
  @ApiDataResponse(Post)
  @ApiProblems(400, 403, 404, 409, 413, 415, 422)
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Post')) id: string,
    @Body() body: UpdatePostDto,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: Post }> {
    const actor = { organizationId: principal.organizationId, userId: principal.userId };
    return postBody(await this.posts.update(actor, id, toCommand(body ?? {}), ifMatch.of(postBody)));
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('posts:write')
  @ApiOperation({ summary: 'Delete a post' })
  @ApiDataResponse(BlogDeletion)
  @ApiProblems(403, 404)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Post')) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: BlogDeletion }> {
    return { data: { id: await this.posts.delete(principal.organizationId, id, ifMatch.of(postBody)), deleted: true } };
  }
}
