import { pgErrorOf, PG_UNIQUE_VIOLATION, slugBaseLock, SlugTakenError, Transactions } from '@almanac/shared';
import type { TermKindName, TermView } from '../domain/term';
import { isPublishedSql } from './post-queries';

interface TermTable {
  readonly table: string;
  readonly slugConstraint: string;
  /** Published posts (as readers see them) carrying term `x`; `$1` is now. For one term. */
  readonly postCount: string;
  /** `(term_id, post_count)` for every term of organization `$2` with published posts; `$1` is now. */
  readonly postCounts: string;
}

const TABLES: Record<TermKindName, TermTable> = {
  category: {
    table: 'post_categories',
    slugConstraint: 'post_categories_org_slug_key',
    postCount: `(SELECT count(*) FROM posts p
                 WHERE p.organization_id = x.organization_id AND p.category_id = x.id AND ${isPublishedSql('p', '$1')})`,
    postCounts: `SELECT p.category_id AS term_id, count(*) AS post_count FROM posts p
                 WHERE p.organization_id = $2 AND p.category_id IS NOT NULL AND ${isPublishedSql('p', '$1')}
                 GROUP BY p.category_id`,
  },
  tag: {
    table: 'post_tags',
    slugConstraint: 'post_tags_org_slug_key',
    // Links carry a copy of their post's status and date (kept by triggers): no join to posts.
    postCount: `(SELECT count(*) FROM post_tag_links l
                 WHERE l.organization_id = x.organization_id AND l.tag_id = x.id AND ${isPublishedSql('l', '$1', 'post_')})`,
    postCounts: `SELECT l.tag_id AS term_id, count(*) AS post_count FROM post_tag_links l
                 WHERE l.organization_id = $2 AND ${isPublishedSql('l', '$1', 'post_')}
                 GROUP BY l.tag_id`,
  },
};

interface TermRow {
  id: string;
  name: string;
  slug: string;
  post_count: string;
}

const toView = (row: TermRow): TermView => ({ id: row.id, name: row.name, slug: row.slug, postCount: Number(row.post_count) });

/**
 * Categories or tags in SQL, one organization at a time; statements run in the ambient unit of work
 * (`Transactions`), or on their own.
 */
export class TermRepository {
  private readonly t: TermTable;

  constructor(
    private readonly db: Transactions,
    kind: TermKindName,
  ) {
    this.t = TABLES[kind];
  }

  /**
   * All terms of the organization by name, with their published post counts: one pass over the
   * organization's posts (or links) grouped by term, not one count per term.
   */
  async list(organizationId: string, now: Date): Promise<TermView[]> {
    const rows = await this.db.rows<TermRow>(
      `SELECT x.id, x.name, x.slug, COALESCE(n.post_count, 0) AS post_count
       FROM ${this.t.table} x LEFT JOIN (${this.t.postCounts}) n ON n.term_id = x.id
       WHERE x.organization_id = $2 ORDER BY x.name, x.id`,
      [now, organizationId],
    );
    return rows.map(toView);
  }

  async find(organizationId: string, id: string, now: Date): Promise<TermView | null> {
    const rows = await this.db.rows<TermRow>(
      `SELECT x.id, x.name, x.slug, ${this.t.postCount} AS post_count
       FROM ${this.t.table} x WHERE x.organization_id = $2 AND x.id = $3`,
      [now, organizationId, id],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The term as it is now, its row locked until the transaction ends (a write's precondition). */
  async lockById(organizationId: string, id: string, now: Date): Promise<TermView | null> {
    const rows = await this.db.rowsInTransaction<TermRow>(
      `SELECT x.id, x.name, x.slug, ${this.t.postCount} AS post_count
       FROM ${this.t.table} x WHERE x.organization_id = $2 AND x.id = $3 FOR UPDATE OF x`,
      [now, organizationId, id],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  /** See `slugBaseLock`: concurrent creates without a slug take turns on one base. */
  async lockSlugBase(organizationId: string, base: string): Promise<void> {
    const lock = slugBaseLock(this.t.table, organizationId, base);
    await this.db.rowsInTransaction(lock.text, lock.values);
  }

  /** Slugs equal to `base` or of the form `base-…` (candidates for `firstFreeSlug`). */
  async slugsLike(organizationId: string, base: string): Promise<string[]> {
    // `base` is a slug (a-z, 0-9, -): no LIKE wildcard can hide in it.
    const rows = await this.db.rows<{ slug: string }>(
      `SELECT slug FROM ${this.t.table} WHERE organization_id = $1 AND (slug = $2 OR slug LIKE $2 || '-%')`,
      [organizationId, base],
    );
    return rows.map((row) => row.slug);
  }

  /** Inserts unless the slug is taken (then returns false and changes nothing). */
  async insertIfSlugFree(
    organizationId: string,
    term: { id: string; name: string; slug: string },
    now: Date,
  ): Promise<boolean> {
    const rows = await this.db.rows(
      `INSERT INTO ${this.t.table} (id, organization_id, name, slug, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (organization_id, slug) DO NOTHING RETURNING id`,
      [term.id, organizationId, term.name, term.slug, now],
    );
    return rows.length > 0;
  }

  /** Returns false when no such term exists in the organization. */
  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; slug?: string },
    now: Date,
  ): Promise<boolean> {
    try {
      const rows = await this.db.rows(
        `UPDATE ${this.t.table} SET name = COALESCE($3, name), slug = COALESCE($4, slug), updated_at = $5
         WHERE organization_id = $1 AND id = $2 RETURNING id`,
        [organizationId, id, changes.name ?? null, changes.slug ?? null, now],
      );
      return rows.length > 0;
    } catch (error) {
      const { code, constraint } = pgErrorOf(error);
      if (code === PG_UNIQUE_VIOLATION && constraint === this.t.slugConstraint) throw new SlugTakenError(changes.slug ?? '');
      throw error;
    }
  }

  /** Posts keep existing: a category is detached (ON DELETE SET NULL), a tag's links go (CASCADE). */
  /** Returns the deleted id, or null when there was no such term. */
  async delete(organizationId: string, id: string): Promise<string | null> {
    const rows = await this.db.rows<{ id: string }>(
      `DELETE FROM ${this.t.table} WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [organizationId, id],
    );
    return rows[0]?.id ?? null;
  }
}
