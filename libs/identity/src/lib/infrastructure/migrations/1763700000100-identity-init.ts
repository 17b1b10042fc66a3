import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityInit1763700000100 implements MigrationInterface {
  name = 'IdentityInit1763700000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 300),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'author')),
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, id)
      )`);
    // One account per e-mail across the service: login takes an e-mail only.
    await runner.query('CREATE UNIQUE INDEX users_email_key ON users (lower(email))');
    await runner.query('CREATE INDEX users_organization_idx ON users (organization_id, created_at, id)');
    await runner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        name text NOT NULL,
        prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        expires_at timestamptz,
        revoked_at timestamptz
      )`);
    await runner.query('CREATE INDEX api_keys_organization_idx ON api_keys (organization_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE api_keys');
    await runner.query('DROP TABLE users');
    await runner.query('DROP TABLE organizations');
  }
}
