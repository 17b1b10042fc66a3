import { Injectable } from '@nestjs/common';
import { IdentityService } from '@almanac/identity';
import { AppConfig, Clock, entityTagOf, NotFoundError } from '@almanac/shared';
import { FEED_ENTRIES, renderAtomFeed } from '../domain/atom-feed';
import { PostFeedRepository } from '../infrastructure/post-feed.repository';

export interface AtomFeedAnswer {
  readonly etag: string;
  /** Rendered only when asked for: a client that has the current version (If-None-Match) gets 304 without it. */
  readonly body: () => Promise<string>;
}

/**
 * The organization's Atom feed, opened by a publishable key. Its ETag comes from what every entry
 * shows but the content (title, excerpt, dates, the row's version, author and tags of the 50 latest
 * published posts) and the feed's own fields; content is read and rendered only for a 200.
 */
@Injectable()
export class PostFeedService {
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
        const contents = await this.feed.contents(reader.organizationId, heads.map((head) => head.id));
        return renderAtomFeed({
          id: `urn:uuid:${reader.organizationId}`,
          title: reader.organizationName,
          selfUrl,
          siteUrl: reader.siteUrl,
          fallbackUpdated: reader.organizationCreatedAt,
          entries: heads.map((head) => ({
            id: head.id,
            title: head.title,
            slug: head.slug,
            excerpt: head.excerpt,
            publishedAt: head.publishedAt,
            updatedAt: head.updatedAt,
            authorName: head.authorName ?? reader.organizationName,
            tags: head.tags,
            // A post deleted between the two reads keeps its entry, without content.
            content: contents.get(head.id) ?? [],
          })),
        });
      },
    };
  }
}
