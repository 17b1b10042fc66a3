import { Injectable } from '@nestjs/common';
import { DomainError, PG_UNIQUE_VIOLATION, pgErrorOf } from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import type { User, UserCredentials, UserRole } from '../domain/user';
import { translateReferenceError } from './reference-errors';

interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  name: string;
  role: UserRole;
  password_hash: string | null;
}

function toCredentials(row: UserRow): UserCredentials {
  return { id: row.id, organizationId: row.organization_id, email: row.email, name: row.name, role: row.role, passwordHash: row.password_hash };
}

/** Users in PostgreSQL (e-mails unique per database, case-insensitively). */
@Injectable()
export class UserRepository {
  /** Stores a user; a taken e-mail → `email_taken`, an unknown organization → invalid `organization_id`. */
  async insert(em: EntityManager, user: User, passwordHash: string | null, createdAt: Date): Promise<void> {
    try {
      await em.query(
        'INSERT INTO users (id, organization_id, email, name, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [user.id, user.organizationId, user.email, user.name, user.role, passwordHash, createdAt],
      );
    } catch (error) {
      if (pgErrorOf(error).code === PG_UNIQUE_VIOLATION) {
        throw new DomainError('email_taken', 'A user with this e-mail already exists.', [{ field: 'email', message: 'already taken' }]);
      }
      translateReferenceError(error);
    }
  }

  /** Whether the user exists in this organization. */
  async existsInOrganization(em: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM users WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows.length > 0;
  }

  /** The user whose e-mail, in lower case, is `emailKey`, with its password hash; null when there is none. */
  async findCredentialsByEmailKey(em: EntityManager, emailKey: string): Promise<UserCredentials | null> {
    const rows: UserRow[] = await em.query(
      'SELECT id, organization_id, email, name, role, password_hash FROM users WHERE lower(email) = $1',
      [emailKey],
    );
    return rows[0] ? toCredentials(rows[0]) : null;
  }
}
