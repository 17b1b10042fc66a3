import { Injectable } from '@nestjs/common';
import { Transactions } from '@almanac/shared';
import type { ContentBlock } from '../domain/content-block';
import { isPublishedSql } from './post-queries';

/** A feed entry without its content: everything the feed's ETag is taken of. */
export interface FeedHead {
  readonly id: string;
  readonly title: string;
  readonly slug: string;
  readonly excerpt: string | null;
  readonly publishedAt: Date;
  readonly updatedAt: Date;
  /** The row's version (its xmin): changes with every write of the post, even two in one millisecond. */
  readonly rowVersion: string;
  readonly authorName: string | null;
  readonly tags: ReadonlyArray<{ slug: string; name: string }>;
}

interface HeadRow {
  id: string;
  title: string;
  slug: string;
  excerpt: string | null;
  published_at: Date;
  updated_at: Date;
  row_version: string;
  author_name: string | null;
  tags: Array<{ slug: string; name: string }>;
}

/**
 * The organization's latest published posts (an overdue scheduled post is published), newest first,
 * without content: one index range (`posts_org_published_desc_idx`) that stops after `limit`
 * matches, with each post's tags and author name.
 */
const HEADS_SQL = `
  SELECT p.id, p.title, p.slug, p.excerpt, p.published_at, p.updated_at, p.xmin::text AS row_version, u.name AS author_name,
         COALESCE((
           SELECT json_agg(json_build_object('slug', t.slug, 'name', t.name) ORDER BY t.slug)
             FROM post_tag_links l JOIN post_tags t ON t.organization_id = l.organization_id AND t.id = l.tag_id
            WHERE l.organization_id = p.organization_id AND l.post_id = p.id
         ), '[]'::json) AS tags
    FROM posts p
    LEFT JOIN user_directory u ON u.organization_id = p.organization_id AND u.id = p.author_id
   WHERE p.organization_id = $1 AND ${isPublishedSql('p', '$2')}
   ORDER BY p.published_at DESC NULLS LAST, p.id DESC
   LIMIT $3`;

/** What the Atom feed reads: the entries' heads first (the ETag), their content only to render. */
@Injectable()
export class PostFeedRepository {
  constructor(private readonly db: Transactions) {}

  async heads(organizationId: string, now: Date, limit: number): Promise<FeedHead[]> {
    const rows = await this.db.rows<HeadRow>(HEADS_SQL, [organizationId, now, limit]);
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      slug: row.slug,
      excerpt: row.excerpt,
      publishedAt: row.published_at,
      updatedAt: row.updated_at,
      rowVersion: row.row_version,
      authorName: row.author_name,
      tags: row.tags,
    }));
  }

  /** The content of the given posts of the organization, by id. */
  async contents(organizationId: string, ids: readonly string[]): Promise<Map<string, ContentBlock[]>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.rows<{ id: string; content: ContentBlock[] }>(
      'SELECT id, content FROM posts WHERE organization_id = $1 AND id = ANY($2::uuid[])',
      [organizationId, ids],
    );
    return new Map(rows.map((row) => [row.id, row.content]));
  }
}
