import { MigrationInterface, QueryRunner } from 'typeorm';

/** Failed sign-ins also counted per client address, so random e-mails cannot turn login into a CPU sink. */
export class LoginFailuresByClient1764010000000 implements MigrationInterface {
  name = 'LoginFailuresByClient1764010000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE login_failures ADD COLUMN client_key text');
    await runner.query('CREATE INDEX login_failures_client_idx ON login_failures (client_key, attempted_at) WHERE client_key IS NOT NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX login_failures_client_idx');
    await runner.query('ALTER TABLE login_failures DROP COLUMN client_key');
  }
}
