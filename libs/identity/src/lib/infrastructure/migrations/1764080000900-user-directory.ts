import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `user_directory`: the read model identity declares for other contexts (blog's authors). It shows a
 * user's organization, id and display name, and nothing else (no e-mail, role or password hash), so
 * no other context reads the `users` table itself. A plain view: the planner inlines it.
 */
export class UserDirectory1764080000900 implements MigrationInterface {
  name = 'UserDirectory1764080000900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE VIEW user_directory AS SELECT organization_id, id, name FROM users');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP VIEW user_directory');
  }
}
