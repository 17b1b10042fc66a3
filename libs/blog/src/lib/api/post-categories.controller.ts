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
import { CategoriesService } from '../application/terms.service';
import { CreatePostCategoryDto, UpdatePostCategoryDto } from './dto/term-input.dto';
import { BlogDeletion, PostCategory, termBody, toTerm } from './dto/post.response';

/**
 * `/posts/categories`: a fixed word, registered before `/posts/{id}` (see BlogModule), so it is never
 * read as a post id.
 */
@V1Controller('posts/categories', 'posts')
export class PostCategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @RequireScope('posts:read')
  @OpenToPublishableKeys()
  @ApiOperation({ summary: 'All categories by name', description: 'post_count counts published posts (an overdue scheduled post is published).' })
  @ApiArrayResponse(PostCategory)
  @ApiProblems(403)
  async list(@Principal() principal: ApiPrincipal): Promise<{ data: PostCategory[] }> {
    return { data: (await this.categories.list(principal.organizationId)).map(toTerm) };
  }

  @Get(':id')
  @Conditional()
  @RequireScope('posts:read')
  @OpenToPublishableKeys()
  @ApiOperation({ summary: 'Get a category' })
  @ApiDataResponse(PostCategory)
  @ApiProblems(403, 404)
  async get(@Principal() principal: ApiPrincipal, @Param('id', UuidParam('Category')) id: string): Promise<{ data: PostCategory }> {
    return termBody(await this.categories.get(principal.organizationId, id));
  }

  @Post()
  @RequireScope('posts:write')
  @ApiOperation({ summary: 'Create a category', description: 'The slug is generated from the name when absent (-2, -3… when taken).' })
  @ApiDataResponse(PostCategory, 201, 'The created category')
  @ApiProblems(400, 403, 409, 413, 415)
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreatePostCategoryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: PostCategory }> {
    const created = await this.categories.create(principal.organizationId, { name: body.name, slug: body.slug });
    res.setHeader('Location', `/api/v1/posts/categories/${created.id}`);
    return { data: toTerm(created) };
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('posts:write')
  @ApiOperation({ summary: 'Rename a category or change its slug' })
  @ApiDataResponse(PostCategory)
  @ApiProblems(400, 403, 404, 409, 413, 415)
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Category')) id: string,
    @Body() body: UpdatePostCategoryDto,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: PostCategory }> {
    const input = { name: body?.name, slug: body?.slug };
    return termBody(await this.categories.update(principal.organizationId, id, input, ifMatch.of(termBody)));
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('posts:write')
  @ApiOperation({ summary: 'Delete a category', description: 'Its posts stay, without a category.' })
  @ApiDataResponse(BlogDeletion)
  @ApiProblems(403, 404)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Category')) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: BlogDeletion }> {
    return { data: { id: await this.categories.delete(principal.organizationId, id, ifMatch.of(termBody)), deleted: true } };
  }
}
