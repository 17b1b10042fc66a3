import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Distribution-ready keys (docs/contract/operations.md, "Citus"): this context's tenant tables are keyed
 * `(organization_id, …)`, as Citus needs of a table distributed by `organization_id`. Every row and
 * every foreign key stays (the composite foreign keys already reference `(organization_id, id)`).
 */
export class BlogDistributionKeys1764070000300 implements MigrationInterface {
  name = 'BlogDistributionKeys1764070000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE post_categories DROP CONSTRAINT post_categories_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
    await runner.query(
      'ALTER TABLE post_tags DROP CONSTRAINT post_tags_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
    await runner.query('ALTER TABLE posts DROP CONSTRAINT posts_pkey, ADD PRIMARY KEY (organization_id, id)');
    await runner.query(
      'ALTER TABLE post_tag_links DROP CONSTRAINT post_tag_links_pkey, ADD PRIMARY KEY (organization_id, post_id, tag_id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE post_categories DROP CONSTRAINT post_categories_pkey, ADD PRIMARY KEY (id)',
    );
    await runner.query('ALTER TABLE post_tags DROP CONSTRAINT post_tags_pkey, ADD PRIMARY KEY (id)');
    await runner.query('ALTER TABLE posts DROP CONSTRAINT posts_pkey, ADD PRIMARY KEY (id)');
    await runner.query(
      'ALTER TABLE post_tag_links DROP CONSTRAINT post_tag_links_pkey, ADD PRIMARY KEY (post_id, tag_id)',
    );
  }
}
