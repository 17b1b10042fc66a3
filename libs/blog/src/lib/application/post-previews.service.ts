import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, findBySecretToken, newId, NotFoundError, secretHash, secretToken } from '@almanac/shared';
import type { PostView } from '../domain/post';
import { PREVIEW_DEFAULT_MINUTES, PREVIEW_TOKEN_PATTERN } from '../domain/preview-link';
import { PostPreviewLinkRepository } from '../infrastructure/post-preview-link.repository';
import { PostsService } from './posts.service';

/**
 * Preview links: a secret address that shows one post, whatever its status, to whoever has it,
 * until it expires or the post is deleted. The post is read live (as its GET reads it), not copied.
 */
@Injectable()
export class PostPreviewsService {
  constructor(
    private readonly links: PostPreviewLinkRepository,
    private readonly posts: PostsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** A new address for the post (only its token's SHA-256 is kept); an unknown post is not found. */
  async create(organizationId: string, postId: string, minutes = PREVIEW_DEFAULT_MINUTES): Promise<{ url: string; path: string; expiresAt: Date }> {
    const token = secretToken(32);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + minutes * 60_000);
    const created = await this.links.create({
      organizationId,
      id: newId(),
      postId,
      tokenHash: secretHash(token),
      createdAt: now,
      expiresAt,
    });
    if (!created) throw new NotFoundError('Post');
    const path = `/public/v1/previews/${token}`;
    return { url: `${this.config.appUrl}${path}`, path, expiresAt };
  }

  /** The post a live link shows; unknown, expired, or its post deleted: not found. */
  async open(token: string): Promise<PostView> {
    const link = await findBySecretToken(token, PREVIEW_TOKEN_PATTERN, (hash) => this.links.open(hash, this.clock.now()));
    if (!link) throw new NotFoundError('Preview');
    return this.posts.get(link.organizationId, link.postId);
  }
}
