import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The clients each e-mail signed in from, with the last time: a client over its limit of failed
 * sign-ins may still check the password of an e-mail that signed in from it recently, so a
 * credential-stuffing neighbour (or a shared address) does not lock its admins out.
 */
export class LoginKnownClients1764300000700 implements MigrationInterface {
  name = 'LoginKnownClients1764300000700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE login_known_clients (
        email_key text NOT NULL,
        client_key text NOT NULL,
        signed_in_at timestamptz NOT NULL,
        PRIMARY KEY (email_key, client_key)
      )`);
    await runner.query('CREATE INDEX login_known_clients_signed_in_idx ON login_known_clients (signed_in_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE login_known_clients');
  }
}
