import { Injectable } from '@nestjs/common';
import { IdentityService } from '@almanac/identity';
import { AppConfig, Clock, entityTagOf, NotFoundError, RenderedCache } from '@almanac/shared';
import { FEED_ENTRIES, renderAtomFeed, renderBlocks } from '../domain/atom-feed';
import { PostFeedRepository } from '../infrastructure/post-feed.repository';

export interface AtomFeedAnswer {
  readonly etag: string;
  /** Rendered only when asked for: a client that has the current version (If-None-Match) gets 304 without it. */
  readonly body: () => Promise<Buffer>;
}

/**
 * Each post's rendered content, kept in memory per process by the post's id and row version (which
 * changes with every write of it), so a feed renders only the posts written since; 50 posts of 500
 * blocks are ~5 MB rendered.
 */
const RENDERED_CONTENT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The organization's Atom feed, opened by a publishable key. Its ETag comes from what every entry
 * shows but the content (title, excerpt, dates, the row's version, author and tags of the 50 latest
 * published posts) and the feed's own fields; content is read and rendered only for a 200, and
 * then only for the posts whose current version is not in memory.
 */
@Injectable()
export class PostFeedService {
  private readonly renderedContent = new RenderedCache(RENDERED_CONTENT_MAX_BYTES);

  constructor(
    private readonly identity: IdentityService,
    private readonly feed: PostFeedRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Unknown, revoked, expired or secret key: not found (a public address never tells which). */
  async atom(key: string): Promise<AtomFeedAnswer> {
    const reader = await this.identity.publishableReader(key);
    if (!reader) throw new NotFoundError('Feed');
    const heads = await this.feed.heads(reader.organizationId, this.clock.now(), FEED_ENTRIES);
    const selfUrl = `${this.config.appUrl}/public/v1/posts.atom?key=${encodeURIComponent(key)}`;
    const etag = entityTagOf(JSON.stringify([reader.organizationId, reader.organizationName, reader.siteUrl, selfUrl, heads]));
    return {
      etag,
      body: async () => {
        const keys = heads.map((head) => `${head.id}:${head.rowVersion}`);
        const contents = await this.renderedContent.getMany(keys, async (missing) => {
          const ids = missing.map((key) => key.slice(0, key.indexOf(':')));
          // A post written between the two reads shows its newer content under the version read
          // first: no later feed asks for that version (its heads show the newer one).
          const blocks = await this.feed.contents(reader.organizationId, ids);
          // A post deleted between the two reads keeps its entry, without content.
          return new Map(missing.map((key, i) => [key, renderBlocks(blocks.get(ids[i]!) ?? [])]));
        });
        return renderAtomFeed({
          id: `urn:uuid:${reader.organizationId}`,
          title: reader.organizationName,
          selfUrl,
          siteUrl: reader.siteUrl,
          fallbackUpdated: reader.organizationCreatedAt,
          entries: heads.map((head, i) => ({
            id: head.id,
            title: head.title,
            slug: head.slug,
            excerpt: head.excerpt,
            publishedAt: head.publishedAt,
            updatedAt: head.updatedAt,
            authorName: head.authorName ?? reader.organizationName,
            tags: head.tags,
            content: contents[i]!,
          })),
        });
      },
    };
  }
}
