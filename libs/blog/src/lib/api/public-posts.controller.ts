import { Controller, Get, Header, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiProblems, Conditional, HEADER_TEXT_PATTERN, noneMatchHits } from '@almanac/shared';
import type { Request, Response } from 'express';
import { PostFeedService } from '../application/post-feed.service';
import { PostPreviewsService } from '../application/post-previews.service';
import { ATOM_CONTENT_TYPE, FEED_ENTRIES } from '../domain/atom-feed';
import { Post, postBody } from './dto/post.response';

/** The blog's public addresses: no API key; what opens them is in the address itself. */
@ApiTags('posts')
@Controller('public/v1')
export class PublicPostsController {
  constructor(
    private readonly feeds: PostFeedService,
    private readonly previews: PostPreviewsService,
  ) {}

  @Get('posts.atom')
  @ApiOperation({
    summary: "The organization's Atom feed",
    description:
      `RFC 4287 Atom of the ${FEED_ENTRIES} latest published posts (a scheduled post once due) by published_at, newest first. ` +
      "The feed's title is the organization's name; each entry has id `urn:uuid:{post id}`, title, published, updated, " +
      'author (the post\'s author, else the organization), summary (the excerpt, when there is one), one category per tag ' +
      '(term = its slug), a `link rel="alternate"` to `{site_url}/{slug}` when the key has a site URL, and the content ' +
      'as `type="html"` (headings as h1–h6, paragraphs, images with src and alt, lists, quotes with their author in a footer; ' +
      'every text escaped; characters XML 1.0 forbids dropped). ETag from the entries without their content: If-None-Match ' +
      "with it answers 304 without rendering. Any page may read it (CORS for every origin, as everything under /public/v1). " +
      'An unknown, revoked or expired key, or a secret key: 404.',
  })
  @ApiQuery({ name: 'key', required: true, description: 'A publishable API key (`alm_pub_…`)', schema: { type: 'string' } })
  @ApiHeader({ name: 'If-None-Match', required: false, schema: { type: 'string', pattern: HEADER_TEXT_PATTERN } })
  @ApiResponse({
    status: 200,
    description: 'The feed',
    content: { 'application/atom+xml': { schema: { type: 'string' } } },
    headers: { ETag: { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'Not modified since the client fetched it', headers: { ETag: { schema: { type: 'string' } } } })
  @ApiProblems(404)
  async atom(@Query('key') key: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const feed = await this.feeds.atom(typeof key === 'string' ? key : '');
    res.setHeader('ETag', feed.etag);
    res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
    if (noneMatchHits(req.headers['if-none-match'], feed.etag)) {
      res.status(304).end();
      return;
    }
    const body = await feed.body();
    res.status(200).setHeader('Content-Type', ATOM_CONTENT_TYPE);
    res.end(body);
  }

  @Get('previews/:token')
  @Conditional()
  @Header('X-Robots-Tag', 'noindex')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOperation({
    summary: 'A post through its preview link',
    description:
      'The post as `GET /api/v1/posts/{id}` answers it, read live, whatever its status, with no key: the token is the secret. ' +
      'An unknown or expired link, or one whose post was deleted: 404.',
  })
  @ApiParam({ name: 'token', description: 'The token of a preview link (32 letters and digits)', example: '3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue' })
  @ApiDataResponse(Post)
  @ApiProblems(404)
  async preview(@Param('token') token: string): Promise<{ data: Post }> {
    return postBody(await this.previews.open(token));
  }
}
