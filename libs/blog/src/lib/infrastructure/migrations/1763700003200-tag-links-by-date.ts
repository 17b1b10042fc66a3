import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tag's posts newest first, from the links alone: `post_tag_links` keeps a copy of each post's
 * published_at (trigger-maintained), so `GET /posts?tag=…` in the default order reads the tag's
 * first links in index order and stops after one page, whatever the tag's share of the posts
 * (before: every post of the tag joined and sorted, or the organization's posts walked newest
 * first until a page of the tag's was found). `post_status` stays included, so the published
 * counts per tag remain index-only. Replaces post_tag_links_org_tag_idx.
 */
export class TagLinksByDate1763700003200 implements MigrationInterface {
  name = 'TagLinksByDate1763700003200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX post_tag_links_org_tag_published_idx ON post_tag_links
         (organization_id, tag_id, post_published_at DESC NULLS LAST, post_id DESC) INCLUDE (post_status)`,
    );
    await runner.query('DROP INDEX post_tag_links_org_tag_idx');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE INDEX post_tag_links_org_tag_idx ON post_tag_links (organization_id, tag_id) INCLUDE (post_status, post_published_at)',
    );
    await runner.query('DROP INDEX post_tag_links_org_tag_published_idx');
  }
}
