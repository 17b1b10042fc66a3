import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revisions and preview links of posts.
 *
 * `post_revisions`: a post's stored fields as each write left them, numbered per post (the unique
 * key orders them, finds the newest and bounds the pruning to the oldest). Beside the fields a
 * revision shows, it keeps is_featured, published_at and author_id, so that a write that changed
 * nothing at all is told apart from one that changed any stored field. Terms are kept as ids without
 * foreign keys: a revision remembers a tag or category that was deleted since.
 *
 * `post_preview_links`: only the SHA-256 of the token is stored; found by that hash (like calendar
 * feed tokens). Both tables go with their post (ON DELETE CASCADE), so a deleted post's links die
 * with it in the same statement.
 */
export class PostRevisionsAndPreviews1764230000100 implements MigrationInterface {
  name = 'PostRevisionsAndPreviews1764230000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE post_revisions (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        post_id uuid NOT NULL,
        number integer NOT NULL CHECK (number >= 1),
        created_at timestamptz NOT NULL,
        title text NOT NULL,
        slug text NOT NULL,
        excerpt text,
        content jsonb NOT NULL,
        status text NOT NULL,
        featured_image_url text,
        category_id uuid,
        tag_ids uuid[] NOT NULL,
        is_featured boolean NOT NULL,
        published_at timestamptz,
        author_id uuid,
        PRIMARY KEY (organization_id, id),
        CONSTRAINT post_revisions_post_number_key UNIQUE (organization_id, post_id, number),
        CONSTRAINT post_revisions_post_fkey FOREIGN KEY (organization_id, post_id) REFERENCES posts (organization_id, id) ON DELETE CASCADE
      )`);
    await runner.query(`
      CREATE TABLE post_preview_links (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        post_id uuid NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id),
        CONSTRAINT post_preview_links_post_fkey FOREIGN KEY (organization_id, post_id) REFERENCES posts (organization_id, id) ON DELETE CASCADE
      )`);
    await runner.query('CREATE INDEX post_preview_links_token_idx ON post_preview_links (token_hash)');
    await runner.query('CREATE INDEX post_preview_links_post_idx ON post_preview_links (organization_id, post_id, expires_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE post_preview_links');
    await runner.query('DROP TABLE post_revisions');
  }
}
