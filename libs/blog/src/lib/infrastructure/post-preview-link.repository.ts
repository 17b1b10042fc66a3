import { Injectable } from '@nestjs/common';
import { PG_FOREIGN_KEY_VIOLATION, pgErrorOf, Transactions } from '@almanac/shared';

/** Preview links of posts: only the SHA-256 of each token is stored. */
@Injectable()
export class PostPreviewLinkRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * Stores a link to the post, in one statement that also drops the post's expired links (so they do
   * not pile up). False when the organization has no such post: nothing is stored.
   */
  async create(
    link: { organizationId: string; id: string; postId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
  ): Promise<boolean> {
    const rows = await this.db.rows(
      `WITH expired AS (
         DELETE FROM post_preview_links WHERE organization_id = $1 AND post_id = $3 AND expires_at <= $5
       )
       INSERT INTO post_preview_links (organization_id, id, post_id, token_hash, created_at, expires_at)
       SELECT p.organization_id, $2, p.id, $4, $5, $6 FROM posts p WHERE p.organization_id = $1 AND p.id = $3
       RETURNING id`,
      [link.organizationId, link.id, link.postId, link.tokenHash, link.createdAt, link.expiresAt],
    ).catch((error: unknown) => {
      // The post was deleted between the statement's read and its foreign-key check.
      if (pgErrorOf(error).code === PG_FOREIGN_KEY_VIOLATION) return [];
      throw error;
    });
    return rows.length > 0;
  }

  /** The post an unexpired link opens; null for an unknown or expired token (a deleted post's links are gone). */
  async open(tokenHash: string, now: Date): Promise<{ organizationId: string; postId: string } | null> {
    const [row] = await this.db.rows<{ organization_id: string; post_id: string }>(
      'SELECT organization_id, post_id FROM post_preview_links WHERE token_hash = $1 AND expires_at > $2',
      [tokenHash, now],
    );
    return row ? { organizationId: row.organization_id, postId: row.post_id } : null;
  }
}
