import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AdminSessionRecord } from '../domain/admin-session';
import type { LoginFailure } from '../domain/login-failure';
import type { User, UserRole } from '../domain/user';

interface SessionRow {
  id: string;
  organization_id: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  email: string;
  name: string;
  role: UserRole;
}

/**
 * Admin sessions (`admin_sessions`, by the SHA-256 of their token), failed sign-ins
 * (`login_failures`, counted per e-mail and per client across every instance) and the clients each
 * e-mail signed in from (`login_known_clients`).
 */
@Injectable()
export class SessionRepository {
  /**
   * Decides one sign-in attempt in one statement (`login_attempt_admit`, see its migration): under the
   * client's lock (when `perClientMax` > 0) and then the e-mail's, reads their failures after
   * `attempt.windowStart`, and records the attempt as a failure unless the client is at its limit
   * (and the e-mail did not sign in from it after `knownSince`) or the e-mail is at its own. Returns
   * what it read, oldest first, and whether it recorded the attempt.
   */
  async admitAttempt(
    em: EntityManager,
    attempt: LoginFailure,
    limits: { windowStart: Date; perClientMax: number; perEmailMax: number; knownSince: Date },
  ): Promise<{ clientFailures: Date[]; knownClient: boolean; emailFailures: Date[]; recorded: boolean }> {
    const rows: Array<{ client_failures: Date[]; known_client: boolean; email_failures: Date[]; recorded: boolean }> = await em.query(
      'SELECT client_failures, known_client, email_failures, recorded FROM login_attempt_admit($1, $2, $3, $4, $5, $6, $7, $8)',
      [attempt.id, attempt.clientKey, attempt.emailKey, attempt.attemptedAt, limits.windowStart, limits.perClientMax, limits.perEmailMax, limits.knownSince],
    );
    const row = rows[0]!;
    return { clientFailures: row.client_failures, knownClient: row.known_client, emailFailures: row.email_failures, recorded: row.recorded };
  }

  /** Notes that the e-mail signed in from this client at `at`. */
  async rememberClient(em: EntityManager, emailKey: string, clientKey: string, at: Date): Promise<void> {
    await em.query(
      `INSERT INTO login_known_clients (email_key, client_key, signed_in_at) VALUES ($1, $2, $3)
       ON CONFLICT (email_key, client_key) DO UPDATE SET signed_in_at = greatest(login_known_clients.signed_in_at, EXCLUDED.signed_in_at)`,
      [emailKey, clientKey, at],
    );
  }

  /** Forgets the e-mail's failures (after a successful sign-in). */
  async clearFailuresOfEmail(em: EntityManager, emailKey: string): Promise<void> {
    await em.query('DELETE FROM login_failures WHERE email_key = $1', [emailKey]);
  }

  /** Drops the user's sessions that expired by `now` or were last seen at or before `idleSince`. */
  async deleteEndedOfUser(em: EntityManager, user: User, now: Date, idleSince: Date): Promise<void> {
    await em.query(
      `DELETE FROM admin_sessions WHERE organization_id = $1 AND user_id = $2
         AND (expires_at <= $3 OR last_seen_at <= $4)`,
      [user.organizationId, user.id, now, idleSince],
    );
  }

  async insert(em: EntityManager, session: AdminSessionRecord, tokenHash: string): Promise<void> {
    await em.query(
      `INSERT INTO admin_sessions (id, organization_id, user_id, token_hash, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [session.id, session.organizationId, session.userId, tokenHash, session.createdAt, session.lastSeenAt, session.expiresAt],
    );
  }

  /** The session with this token hash and its user, or null. */
  async findByTokenHash(em: EntityManager, tokenHash: string): Promise<{ session: AdminSessionRecord; user: User } | null> {
    const rows: SessionRow[] = await em.query(
      `SELECT s.id, s.organization_id, s.user_id, s.created_at, s.last_seen_at, s.expires_at, u.email, u.name, u.role
         FROM admin_sessions s
         JOIN users u ON u.organization_id = s.organization_id AND u.id = s.user_id
        WHERE s.token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      session: { id: row.id, organizationId: row.organization_id, userId: row.user_id, createdAt: row.created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at },
      user: { id: row.user_id, organizationId: row.organization_id, email: row.email, name: row.name, role: row.role },
    };
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    await em.query('DELETE FROM admin_sessions WHERE id = $1', [id]);
  }

  /** Moves last_seen_at forward to `at` (never back, when two instances touch at once). */
  async touch(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.query('UPDATE admin_sessions SET last_seen_at = greatest(last_seen_at, $2) WHERE id = $1', [id, at]);
  }

  /** Deletes the session with this token hash; true when there was one. */
  async deleteByTokenHash(em: EntityManager, tokenHash: string): Promise<boolean> {
    const result: [unknown[], number] = await em.query('DELETE FROM admin_sessions WHERE token_hash = $1', [tokenHash]);
    return result[1] > 0;
  }

  /** Drops the failures that left the window (attempted at or before `windowStart`). */
  async deleteFailuresBefore(em: EntityManager, windowStart: Date): Promise<void> {
    await em.query('DELETE FROM login_failures WHERE attempted_at <= $1', [windowStart]);
  }

  /** Forgets the clients whose last sign-in was at or before `before`. */
  async deleteKnownClientsBefore(em: EntityManager, before: Date): Promise<void> {
    await em.query('DELETE FROM login_known_clients WHERE signed_in_at <= $1', [before]);
  }

  /** Drops every session that expired by `now` or was last seen at or before `idleSince`. */
  async deleteEnded(em: EntityManager, now: Date, idleSince: Date): Promise<void> {
    await em.query('DELETE FROM admin_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleSince]);
  }
}
