import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (see `AuditLog`). Append-only by the database's rule: a trigger refuses every
 * UPDATE, every TRUNCATE and every DELETE but the one an organization's own deletion cascades into.
 * Listed newest first per organization, all of it or one action.
 */
export class SharedAuditLog1764300000100 implements MigrationInterface {
  name = 'SharedAuditLog1764300000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE audit_log (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        at timestamptz NOT NULL,
        action text NOT NULL CHECK (char_length(action) BETWEEN 1 AND 100),
        actor_type text CHECK (actor_type IN ('user', 'api_key')),
        actor_id uuid,
        actor_name text CHECK (char_length(actor_name) <= 300),
        target_type text NOT NULL CHECK (char_length(target_type) BETWEEN 1 AND 100),
        target_id text NOT NULL CHECK (char_length(target_id) BETWEEN 1 AND 200),
        ip text CHECK (char_length(ip) <= 100),
        request_id text CHECK (char_length(request_id) <= 200),
        PRIMARY KEY (organization_id, id),
        CONSTRAINT audit_log_actor CHECK ((actor_type IS NULL) = (actor_id IS NULL))
      )`);
    await runner.query('CREATE INDEX audit_log_list_idx ON audit_log (organization_id, at DESC, id DESC)');
    await runner.query('CREATE INDEX audit_log_action_idx ON audit_log (organization_id, action, at DESC, id DESC)');
    await runner.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          -- The organization's own deletion cascades here after its row is gone: its log goes with it.
          IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = OLD.organization_id) THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await runner.query(
      'CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()',
    );
    await runner.query(
      'CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE audit_log');
    await runner.query('DROP FUNCTION audit_log_append_only()');
  }
}
