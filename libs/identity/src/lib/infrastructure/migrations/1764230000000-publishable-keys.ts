import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Publishable API keys: `kind` (existing keys are secret), the browser origins that get CORS headers
 * and the site their posts live on. Only a publishable key has origins or a site URL, and it has
 * exactly the two read scopes (the CHECKs hold what the service decides). The partial GIN index
 * answers a preflight's question, "does any unrevoked publishable key allow this origin?", without
 * reading the keys of every organization.
 */
export class PublishableKeys1764230000000 implements MigrationInterface {
  name = 'PublishableKeys1764230000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE api_keys
        ADD COLUMN kind text NOT NULL DEFAULT 'secret' CONSTRAINT api_keys_kind_check CHECK (kind IN ('secret', 'publishable')),
        ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}',
        ADD COLUMN site_url text,
        ADD CONSTRAINT api_keys_publishable_terms_check CHECK (
          kind = 'publishable'
            OR (cardinality(allowed_origins) = 0 AND site_url IS NULL)
        ),
        ADD CONSTRAINT api_keys_publishable_scopes_check CHECK (
          kind = 'secret' OR (scopes @> ARRAY['posts:read', 'events:read'] AND scopes <@ ARRAY['posts:read', 'events:read'])
        )`);
    await runner.query(
      `CREATE INDEX api_keys_publishable_origins_idx ON api_keys USING gin (allowed_origins) WHERE kind = 'publishable' AND revoked_at IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX api_keys_publishable_origins_idx');
    await runner.query(`
      ALTER TABLE api_keys
        DROP CONSTRAINT api_keys_publishable_scopes_check,
        DROP CONSTRAINT api_keys_publishable_terms_check,
        DROP COLUMN site_url,
        DROP COLUMN allowed_origins,
        DROP COLUMN kind`);
  }
}
