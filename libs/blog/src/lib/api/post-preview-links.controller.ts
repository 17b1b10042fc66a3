import { Body, Param, Post as HttpPost, Res } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { ApiPrincipal, Principal, RequireScope, V1Controller } from '@almanac/identity';
import { ApiDataResponse, ApiProblems, UuidParam } from '@almanac/shared';
import type { Response } from 'express';
import { PostPreviewsService } from '../application/post-previews.service';
import { CreatePreviewLinkDto, PreviewLinkResponse } from './dto/preview-link.dto';

/** `/posts/{id}/preview-link`: a secret address that shows the post to someone without a key. */
@V1Controller('posts', 'posts')
export class PostPreviewLinksController {
  constructor(private readonly previews: PostPreviewsService) {}

  @HttpPost(':id/preview-link')
  @RequireScope('posts:write')
  @ApiOperation({
    summary: 'Create a preview link',
    description:
      'A new secret address `{APP_URL}/public/v1/previews/{token}` that answers the post as its GET does, live and whatever its ' +
      'status (drafts included), to anyone without a key, until `expires_at` or until the post is deleted; then 404. ' +
      'Each call makes another link; earlier ones keep working until they expire.',
  })
  @ApiBody({ type: CreatePreviewLinkDto, required: false })
  @ApiDataResponse(PreviewLinkResponse, 201, 'The address, shown only here')
  @ApiProblems(400, 403, 404)
  async create(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Post')) id: string,
    @Body() body: CreatePreviewLinkDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: PreviewLinkResponse }> {
    const link = await this.previews.create(principal.organizationId, id, body?.expires_in_minutes);
    res.setHeader('Location', link.path);
    return { data: { url: link.url, expires_at: link.expiresAt.toISOString() } };
  }
}
