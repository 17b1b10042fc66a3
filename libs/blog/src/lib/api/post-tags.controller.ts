import { Body, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPrincipal, OpenToPublishableKeys, Principal, RequireScope, V1Controller } from '@almanac/identity';
import {
  ApiArrayResponse,
  ApiDataResponse,
  ApiProblems,
  Conditional,
  IfMatch,
  IfMatchHeader,
  UuidParam,
} from '@almanac/shared';
import type { Response } from 'express';
import { TagsService } from '../application/terms.service';
import { CreatePostTagDto, UpdatePostTagDto } from './dto/term-input.dto';
import { BlogDeletion, PostTag, termBody, toTerm } from './dto/post.response';

/**
 * `/posts/tags`: a fixed word, registered before `/posts/{id}` (see BlogModule), so it is never
 * read as a post id.
 */
@V1Controller('posts/tags', 'posts')
export class PostTagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @RequireScope('posts:read')
  @OpenToPublishableKeys()
  @ApiOperation({ summary: 'All tags by name', description: 'post_count counts published posts (an overdue scheduled post is published).' })
  @ApiArrayResponse(PostTag)
  @ApiProblems(403)
  async list(@Principal() principal: ApiPrincipal): Promise<{ data: PostTag[] }> {
    return { data: (await this.tags.list(principal.organizationId)).map(toTerm) };
  }

  @Get(':id')
  @Conditional()
  @RequireScope('posts:read')
  @OpenToPublishableKeys()
  @ApiOperation({ summary: 'Get a tag' })
  @ApiDataResponse(PostTag)
  @ApiProblems(403, 404)
  async get(@Principal() principal: ApiPrincipal, @Param('id', UuidParam('Tag')) id: string): Promise<{ data: PostTag }> {
    return termBody(await this.tags.get(principal.organizationId, id));
  }

  @Post()
  @RequireScope('posts:write')
  @ApiOperation({ summary: 'Create a tag', description: 'The slug is generated from the name when absent (-2, -3… when taken).' })
  @ApiDataResponse(PostTag, 201, 'The created tag')
  @ApiProblems(400, 403, 409, 413, 415)
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreatePostTagDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: PostTag }> {
    const created = await this.tags.create(principal.organizationId, { name: body.name, slug: body.slug });
    res.setHeader('Location', `/api/v1/posts/tags/${created.id}`);
    return { data: toTerm(created) };
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('posts:write')
  @ApiOperation({ summary: 'Rename a tag or change its slug' })
  @ApiDataResponse(PostTag)
  @ApiProblems(400, 403, 404, 409, 413, 415)
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Tag')) id: string,
    @Body() body: UpdatePostTagDto,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: PostTag }> {
    const input = { name: body?.name, slug: body?.slug };
    return termBody(await this.tags.update(principal.organizationId, id, input, ifMatch.of(termBody)));
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('posts:write')
  @ApiOperation({ summary: 'Delete a tag', description: 'Its posts stay, without the tag.' })
  @ApiDataResponse(BlogDeletion)
  @ApiProblems(403, 404)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Tag')) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: BlogDeletion }> {
    return { data: { id: await this.tags.delete(principal.organizationId, id, ifMatch.of(termBody)), deleted: true } };
  }
}
