import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Narrow post rows: content and the full search vector (about 1 KB each, compressed) move out of
 * line whenever a row passes 512 bytes, while `rank_vector` stays in the row (MAIN: compressed
 * before it would ever leave it). A search reads each hit's row for the organization and the
 * ranking; with 100,000 posts the heap falls from 166 MB to 74 MB and fits PostgreSQL's shared
 * buffers, and a search matching 51,000 posts takes ~65 ms instead of ~170 ms (bench/results).
 *
 * The settings apply to rows as they are written; `VACUUM FULL posts` moves rows written earlier.
 */
export class PostsNarrowRows1763700003100 implements MigrationInterface {
  name = 'PostsNarrowRows1763700003100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE posts SET (toast_tuple_target = 512)');
    await runner.query('ALTER TABLE posts ALTER COLUMN rank_vector SET STORAGE MAIN');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE posts ALTER COLUMN rank_vector SET STORAGE EXTENDED');
    await runner.query('ALTER TABLE posts RESET (toast_tuple_target)');
  }
}
