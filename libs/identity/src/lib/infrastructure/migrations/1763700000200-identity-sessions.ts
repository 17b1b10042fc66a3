import { MigrationInterface, QueryRunner } from 'typeorm';

/** Admin sessions, login throttling and idempotency records. */
export class IdentitySessions1763700000200 implements MigrationInterface {
  name = 'IdentitySessions1763700000200';

  async up(runner: QueryRunner): Promise<void> {
    // Only a SHA-256 of the session token is stored: a leaked table does not leak live sessions.
    await runner.query(`
      CREATE TABLE admin_sessions (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        FOREIGN KEY (organization_id, user_id) REFERENCES users(organization_id, id) ON DELETE CASCADE
      )`);
    await runner.query('CREATE INDEX admin_sessions_user_idx ON admin_sessions (organization_id, user_id)');
    await runner.query('CREATE INDEX admin_sessions_expires_idx ON admin_sessions (expires_at)');

    // Failed logins per e-mail. Not a tenant table: the e-mail may belong to no organization, and
    // unknown e-mails are throttled exactly like known ones so the answer reveals nothing.
    await runner.query(`
      CREATE TABLE login_failures (
        id uuid PRIMARY KEY,
        email_key text NOT NULL,
        attempted_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX login_failures_email_idx ON login_failures (email_key, attempted_at)');
    await runner.query('CREATE INDEX login_failures_attempted_idx ON login_failures (attempted_at)');

    // The first response to a POST /api/v1 request carrying an Idempotency-Key, kept 24 h.
    await runner.query(`
      CREATE TABLE idempotency_keys (
        attempt_id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
        request_hash text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        response_status integer,
        response_body text,
        response_location text,
        created_at timestamptz NOT NULL,
        locked_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        UNIQUE (organization_id, key)
      )`);
    await runner.query('CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE idempotency_keys');
    await runner.query('DROP TABLE login_failures');
    await runner.query('DROP TABLE admin_sessions');
  }
}
