import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Posts, categories, tags and their links, with full-text search.
 *
 * - Every table is keyed by organization; references carry organization_id in composite foreign keys,
 *   so a post can never point at another organization's category, tag or author.
 * - `posts.search_vector` is a stored generated column: title (weight A), excerpt (B) and the text of
 *   the content blocks (C), so every write keeps it current without application code or triggers.
 *   It can be large and is then stored out of line; `rank_vector` (title and excerpt only) stays in
 *   the row, so ranking thousands of hits does not fetch and decompress thousands of big vectors.
 * - An overdue scheduled post is read as published by the queries; the publisher flips it for real.
 */
export class BlogInit1763700003000 implements MigrationInterface {
  name = 'BlogInit1763700003000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE post_categories (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 300),
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length(slug) <= 100),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT post_categories_org_id_key UNIQUE (organization_id, id),
        CONSTRAINT post_categories_org_slug_key UNIQUE (organization_id, slug)
      )`);
    await runner.query(`
      CREATE TABLE post_tags (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 300),
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length(slug) <= 100),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT post_tags_org_id_key UNIQUE (organization_id, id),
        CONSTRAINT post_tags_org_slug_key UNIQUE (organization_id, slug)
      )`);

    // The searchable text of a content array: heading, paragraph and quote text, quote authors, list
    // items and image alt text, in block order. IMMUTABLE (it reads nothing but its argument), so a
    // generated column may use it. Capped so that no post can exceed tsvector's 1 MB limit.
    await runner.query(`
      CREATE FUNCTION blog_content_text(content jsonb) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      RETURN left(coalesce((
        SELECT string_agg(part, E'\\n' ORDER BY block_no, part_no)
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(content) = 'array' THEN content ELSE '[]'::jsonb END)
             WITH ORDINALITY AS b(block, block_no)
        CROSS JOIN LATERAL (
          SELECT b.block ->> 'text', 0::bigint WHERE b.block ->> 'type' IN ('heading', 'paragraph', 'quote')
          UNION ALL
          SELECT b.block ->> 'author', 1 WHERE b.block ->> 'type' = 'quote'
          UNION ALL
          SELECT b.block ->> 'alt', 0 WHERE b.block ->> 'type' = 'image'
          UNION ALL
          SELECT i.item, i.item_no
          FROM jsonb_array_elements_text(
                 CASE WHEN b.block ->> 'type' = 'list' AND jsonb_typeof(b.block -> 'items') = 'array'
                      THEN b.block -> 'items' ELSE '[]'::jsonb END
               ) WITH ORDINALITY AS i(item, item_no)
        ) AS p(part, part_no)
      ), ''), 200000)`);

    await runner.query(`
      CREATE TABLE posts (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 300),
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length(slug) <= 100),
        excerpt text CHECK (char_length(excerpt) <= 5000),
        content jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(content) = 'array'),
        featured_image_url text,
        status text NOT NULL CHECK (status IN ('draft', 'published', 'scheduled', 'archived')),
        is_featured boolean NOT NULL DEFAULT false,
        published_at timestamptz,
        category_id uuid,
        author_id uuid,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        search_vector tsvector NOT NULL GENERATED ALWAYS AS (
          setweight(to_tsvector('english'::regconfig, title), 'A') ||
          setweight(to_tsvector('english'::regconfig, coalesce(excerpt, '')), 'B') ||
          setweight(to_tsvector('english'::regconfig, blog_content_text(content)), 'C')
        ) STORED,
        rank_vector tsvector NOT NULL GENERATED ALWAYS AS (
          setweight(to_tsvector('english'::regconfig, title), 'A') ||
          setweight(to_tsvector('english'::regconfig, coalesce(excerpt, '')), 'B')
        ) STORED,
        CONSTRAINT posts_scheduled_has_date CHECK (status <> 'scheduled' OR published_at IS NOT NULL),
        CONSTRAINT posts_org_id_key UNIQUE (organization_id, id),
        CONSTRAINT posts_org_slug_key UNIQUE (organization_id, slug),
        CONSTRAINT posts_category_fkey FOREIGN KEY (organization_id, category_id)
          REFERENCES post_categories (organization_id, id) ON DELETE SET NULL (category_id),
        CONSTRAINT posts_author_fkey FOREIGN KEY (organization_id, author_id)
          REFERENCES users (organization_id, id) ON DELETE SET NULL (author_id)
      )`);
    // post_status / post_published_at copy the post's (kept by the triggers below), so that the
    // published posts of every tag are counted from this table's index alone.
    await runner.query(`
      CREATE TABLE post_tag_links (
        organization_id uuid NOT NULL,
        post_id uuid NOT NULL,
        tag_id uuid NOT NULL,
        post_status text,
        post_published_at timestamptz,
        PRIMARY KEY (post_id, tag_id),
        CONSTRAINT post_tag_links_post_fkey FOREIGN KEY (organization_id, post_id)
          REFERENCES posts (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT post_tag_links_tag_fkey FOREIGN KEY (organization_id, tag_id)
          REFERENCES post_tags (organization_id, id) ON DELETE CASCADE
      )`);

    // The default order (published_at desc, nulls last, id) and its reverse need their own indexes:
    // NULLS LAST in both directions cannot come from one btree.
    await runner.query('CREATE INDEX posts_org_published_desc_idx ON posts (organization_id, published_at DESC NULLS LAST, id DESC)');
    await runner.query('CREATE INDEX posts_org_published_asc_idx ON posts (organization_id, published_at ASC NULLS LAST, id ASC)');
    await runner.query('CREATE INDEX posts_org_created_idx ON posts (organization_id, created_at, id)');
    await runner.query('CREATE INDEX posts_org_updated_idx ON posts (organization_id, updated_at, id)');
    await runner.query('CREATE INDEX posts_org_title_idx ON posts (organization_id, title, id)');
    await runner.query('CREATE INDEX posts_org_status_idx ON posts (organization_id, status, published_at DESC NULLS LAST, id DESC)');
    // INCLUDE (status): the published-post counts per category come from this index alone.
    await runner.query(
      'CREATE INDEX posts_org_category_idx ON posts (organization_id, category_id, published_at DESC NULLS LAST, id DESC) INCLUDE (status)',
    );
    await runner.query('CREATE INDEX posts_org_author_idx ON posts (organization_id, author_id, published_at DESC NULLS LAST, id DESC)');
    await runner.query(
      'CREATE INDEX posts_org_featured_idx ON posts (organization_id, published_at DESC NULLS LAST, id DESC) WHERE is_featured',
    );
    await runner.query('CREATE INDEX posts_search_idx ON posts USING gin (search_vector)');
    // The publisher's claim: due scheduled posts, oldest first, across organizations.
    await runner.query("CREATE INDEX posts_scheduled_due_idx ON posts (published_at) WHERE status = 'scheduled'");
    await runner.query('CREATE INDEX post_tag_links_tag_idx ON post_tag_links (tag_id, post_id)');
    await runner.query(
      'CREATE INDEX post_tag_links_org_tag_idx ON post_tag_links (organization_id, tag_id) INCLUDE (post_status, post_published_at)',
    );
    await runner.query(`
      CREATE FUNCTION blog_tag_link_copy_post() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT p.status, p.published_at INTO NEW.post_status, NEW.post_published_at FROM posts p WHERE p.id = NEW.post_id;
        RETURN NEW;
      END $$`);
    await runner.query(`
      CREATE TRIGGER post_tag_links_copy_post BEFORE INSERT OR UPDATE OF post_id ON post_tag_links
      FOR EACH ROW EXECUTE FUNCTION blog_tag_link_copy_post()`);
    await runner.query(`
      CREATE FUNCTION blog_post_sync_tag_links() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE post_tag_links SET post_status = NEW.status, post_published_at = NEW.published_at WHERE post_id = NEW.id;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER posts_sync_tag_links AFTER UPDATE OF status, published_at ON posts
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.published_at IS DISTINCT FROM NEW.published_at)
      EXECUTE FUNCTION blog_post_sync_tag_links()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE post_tag_links');
    await runner.query('DROP TABLE posts');
    await runner.query('DROP FUNCTION blog_post_sync_tag_links()');
    await runner.query('DROP FUNCTION blog_tag_link_copy_post()');
    await runner.query('DROP FUNCTION blog_content_text(jsonb)');
    await runner.query('DROP TABLE post_tags');
    await runner.query('DROP TABLE post_categories');
  }
}
