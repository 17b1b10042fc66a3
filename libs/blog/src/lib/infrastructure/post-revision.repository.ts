import { Injectable } from '@nestjs/common';
import { DEFAULT_LIST_COUNT_CAP, ListTotal, Page, pageWithTotal, Transactions } from '@almanac/shared';
import type { ContentBlock } from '../domain/content-block';
import type { PostStatus } from '../domain/post-status';
import { MAX_REVISIONS_PER_POST, PostRevision, RevisionTarget } from '../domain/post-revision';

/** The stored fields a revision copies from its post; the same list is compared to tell "nothing changed". */
const SNAPSHOT = ['title', 'slug', 'excerpt', 'content', 'status', 'featured_image_url', 'category_id', 'tag_ids', 'is_featured', 'published_at', 'author_id'];

/**
 * Records the revisions of the given posts as they are now, in ONE statement: each post's stored
 * fields (its tags as sorted ids), numbered after its newest revision, unless nothing differs from
 * that newest revision and `$5` (always) is false; then drops what falls past the newest 100 of each
 * post (at most a few rows: every earlier write pruned too). Runs after the write, in its
 * transaction, where the post's row is locked, so the numbers cannot race.
 * $1 organization ids, $2 post ids, $3 new revision ids (aligned), $4 the time, $5 always.
 */
const RECORD_SQL = `
  WITH target AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS t(organization_id, post_id, id)
  ),
  state AS (
    SELECT target.id, p.organization_id, p.id AS post_id, p.title, p.slug, p.excerpt, p.content, p.status,
           p.featured_image_url, p.category_id,
           ARRAY(SELECT l.tag_id FROM post_tag_links l WHERE l.organization_id = p.organization_id AND l.post_id = p.id ORDER BY l.tag_id) AS tag_ids,
           p.is_featured, p.published_at, p.author_id
      FROM target JOIN posts p ON p.organization_id = target.organization_id AND p.id = target.post_id
  ),
  compared AS (
    SELECT s.*, latest.number AS latest_number,
           latest.number IS NOT NULL AND (${SNAPSHOT.map((c) => `latest.${c}`).join(', ')}) IS NOT DISTINCT FROM (${SNAPSHOT.map((c) => `s.${c}`).join(', ')}) AS unchanged
      FROM state s
      LEFT JOIN LATERAL (
        SELECT r.* FROM post_revisions r
         WHERE r.organization_id = s.organization_id AND r.post_id = s.post_id
         ORDER BY r.number DESC LIMIT 1
      ) latest ON true
  ),
  inserted AS (
    INSERT INTO post_revisions (organization_id, id, post_id, number, created_at, ${SNAPSHOT.join(', ')})
    SELECT organization_id, id, post_id, COALESCE(latest_number, 0) + 1, $4, ${SNAPSHOT.join(', ')}
      FROM compared WHERE $5 OR NOT unchanged
    RETURNING organization_id, post_id, number
  )
  DELETE FROM post_revisions r USING inserted i
   WHERE r.organization_id = i.organization_id AND r.post_id = i.post_id AND r.number <= i.number - ${MAX_REVISIONS_PER_POST}`;

interface RevisionRow {
  id: string;
  post_id: string;
  created_at: Date;
  title: string;
  slug: string;
  excerpt: string | null;
  status: PostStatus;
  featured_image_url: string | null;
  category_id: string | null;
  tag_ids: string[];
  content?: ContentBlock[];
}

const LIST_COLUMNS = 'id, post_id, created_at, title, slug, excerpt, status, featured_image_url, category_id, tag_ids';

function toRevision(row: RevisionRow): PostRevision {
  return {
    id: row.id,
    postId: row.post_id,
    createdAt: row.created_at,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    status: row.status,
    featuredImageUrl: row.featured_image_url,
    categoryId: row.category_id,
    tagIds: row.tag_ids,
    ...(row.content !== undefined ? { content: row.content } : {}),
  };
}

/** Revisions of posts in SQL, every statement scoped to one organization (the record, to each target's). */
@Injectable()
export class PostRevisionRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * One revision per target whose stored fields changed since its newest revision (every target
   * when `always`), the oldest past 100 removed; one statement whatever the number of targets.
   */
  async record(targets: readonly RevisionTarget[], at: Date, always = false): Promise<void> {
    if (targets.length === 0) return;
    await this.db.rows(RECORD_SQL, [
      targets.map((t) => t.organizationId),
      targets.map((t) => t.postId),
      targets.map((t) => t.id),
      at,
      always,
    ]);
  }

  /** A page of a post's revisions, newest first, without content, and how many there are. */
  async page(organizationId: string, postId: string, page: Page): Promise<{ items: PostRevision[]; total: ListTotal }> {
    const { rows, total } = await pageWithTotal<RevisionRow>(
      (sql, params) => this.db.rows(sql, params),
      { columns: LIST_COLUMNS, from: 'FROM post_revisions WHERE organization_id = $1 AND post_id = $2', orderBy: 'number DESC' },
      [organizationId, postId],
      page,
      // A post keeps its newest 100 revisions: the count never gets near the cap.
      DEFAULT_LIST_COUNT_CAP,
    );
    return { items: rows.map(toRevision), total };
  }

  /** One revision of the post, with its content; null when the post has no such revision. */
  async find(organizationId: string, postId: string, id: string): Promise<PostRevision | null> {
    const [row] = await this.db.rows<RevisionRow>(
      `SELECT ${LIST_COLUMNS}, content FROM post_revisions WHERE organization_id = $1 AND post_id = $2 AND id = $3`,
      [organizationId, postId, id],
    );
    return row ? toRevision(row) : null;
  }

  /** Whether the organization has this post (its revisions are 404 otherwise, as the post is). */
  async postExists(organizationId: string, postId: string): Promise<boolean> {
    return (await this.db.rows('SELECT 1 FROM posts WHERE organization_id = $1 AND id = $2', [organizationId, postId])).length > 0;
  }
}
