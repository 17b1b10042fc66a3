import { MigrationInterface, QueryRunner } from 'typeorm';

/** First key of the transaction-scoped advisory locks taken per client and per e-mail. */
const LOCK_CLASS = 7_245_319;

/**
 * `login_attempt_admit(…)` decides whether one sign-in attempt may go on to the password check, in one
 * statement: under the per-client lock (when the client limit is on) and then the per-e-mail lock
 * (transaction-scoped advisory locks, always in that order) it reads the failures of the client and of
 * the e-mail after `window_start`, and records the attempt as a failure (until it succeeds) when neither limit
 * refuses it. A client at its limit is refused unless the e-mail signed in from it since `known_since`.
 *
 * Why one statement: the locks are held only while PostgreSQL works, never across round trips to the
 * application, so fifty attempts at once on a loaded machine queue for microseconds each instead of
 * for the application's turns on a busy CPU (which outlived the pool's wait for a free connection).
 * It returns the failure times it read, so the application computes Retry-After as before.
 */
export class LoginAttemptFunction1764350000300 implements MigrationInterface {
  name = 'LoginAttemptFunction1764350000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE FUNCTION login_attempt_admit(
        attempt_id uuid, client text, email text, attempted timestamptz, window_start timestamptz,
        client_max integer, email_max integer, known_since timestamptz,
        OUT client_failures timestamptz[], OUT known_client boolean, OUT email_failures timestamptz[], OUT recorded boolean)
      LANGUAGE plpgsql AS $$
      BEGIN
        client_failures := '{}';
        known_client := false;
        email_failures := '{}';
        recorded := false;
        IF client_max > 0 THEN
          PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(client));
          SELECT coalesce(array_agg(f.attempted_at ORDER BY f.attempted_at), '{}') INTO client_failures
            FROM login_failures f WHERE f.client_key = client AND f.attempted_at > window_start;
          IF cardinality(client_failures) >= client_max THEN
            known_client := EXISTS (SELECT 1 FROM login_known_clients k
              WHERE k.email_key = email AND k.client_key = client AND k.signed_in_at > known_since);
            IF NOT known_client THEN
              RETURN;
            END IF;
          END IF;
        END IF;
        PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(email));
        SELECT coalesce(array_agg(f.attempted_at ORDER BY f.attempted_at), '{}') INTO email_failures
          FROM login_failures f WHERE f.email_key = email AND f.attempted_at > window_start;
        IF cardinality(email_failures) >= email_max THEN
          RETURN;
        END IF;
        INSERT INTO login_failures (id, email_key, client_key, attempted_at) VALUES (attempt_id, email, client, attempted);
        recorded := true;
      END
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP FUNCTION login_attempt_admit(uuid, text, text, timestamptz, timestamptz, integer, integer, timestamptz)');
  }
}
