import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, Clock, DomainError, newId, UnauthorizedError } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { AdminSessionInfo, isSessionActive, needsTouch, SESSION_IDLE_MS, sessionExpiry, UserRole } from '../domain/admin-session';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, loginEmailKey, loginThrottle } from '../domain/login-throttle';
import { DUMMY_PASSWORD_HASH_PROMISE, verifyPassword } from '../domain/password';
import { generateSessionToken, hashSessionToken, SESSION_TOKEN_PATTERN } from '../domain/session-token';

/** Too many failed logins for one e-mail, or from one client; the controller answers 429 with Retry-After. */
export class LoginThrottledError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    byClient = false,
  ) {
    super('rate_limited', `Too many failed sign-in attempts ${byClient ? 'from this client' : 'for this e-mail'}. Try again later.`);
  }
}

/** One message for every refused sign-in, so the answer never tells which part was wrong. */
export const INVALID_LOGIN_MESSAGE = 'Invalid e-mail or password.';

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

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** First key of the advisory lock taken per e-mail while counting failures. */
const LOGIN_LOCK_CLASS = 7_245_319;

/** Admin sign-in, sessions kept in PostgreSQL, and the per-e-mail login throttle. */
@Injectable()
export class AdminSessionService {
  private readonly logger = new Logger('AdminSessions');
  private lastSweep = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Verifies the credentials of an admin and opens a session. Unknown e-mail, wrong password and a
   * non-admin account all raise the same UnauthorizedError after one scrypt verification each.
   */
  async login(email: string, password: string, clientAddress = ''): Promise<{ token: string; user: AdminSessionInfo }> {
    const now = this.clock.now();
    const emailKey = loginEmailKey(email);
    const clientKey = `client:${clientAddress}`;
    this.sweep(now);

    // Count the recent failures of this client and of this e-mail, and record this attempt as one
    // (until it succeeds), under a lock per client and one per e-mail (always taken in that order):
    // of concurrent attempts, exactly as many as allowed reach the password check.
    const attemptId = newId();
    const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
    const throttle = await this.dataSource.transaction(async (em) => {
      const perClient = this.config.loginMaxFailuresPerClient;
      if (perClient > 0) {
        await em.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOGIN_LOCK_CLASS, clientKey]);
        const byClient: Array<{ attempted_at: Date }> = await em.query(
          'SELECT attempted_at FROM login_failures WHERE client_key = $1 AND attempted_at > $2',
          [clientKey, since],
        );
        const decision = loginThrottle(byClient.map((row) => row.attempted_at), now, perClient);
        if (!decision.allowed) return { ...decision, byClient: true };
      }
      await em.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOGIN_LOCK_CLASS, emailKey]);
      const recent: Array<{ attempted_at: Date }> = await em.query(
        'SELECT attempted_at FROM login_failures WHERE email_key = $1 AND attempted_at > $2',
        [emailKey, since],
      );
      const decision = loginThrottle(recent.map((row) => row.attempted_at), now, LOGIN_MAX_FAILURES);
      if (decision.allowed) {
        await em.query('INSERT INTO login_failures (id, email_key, client_key, attempted_at) VALUES ($1, $2, $3, $4)', [
          attemptId,
          emailKey,
          clientKey,
          now,
        ]);
      }
      return { ...decision, byClient: false };
    });
    if (!throttle.allowed) throw new LoginThrottledError(throttle.retryAfterSeconds, throttle.byClient);

    const users: Array<{ id: string; organization_id: string; email: string; name: string; role: UserRole; password_hash: string | null }> =
      await this.dataSource.query(
        'SELECT id, organization_id, email, name, role, password_hash FROM users WHERE lower(email) = $1',
        [emailKey],
      );
    const user = users[0];
    // Always one scrypt verification, against a dummy hash when there is nothing to verify against.
    const storedHash = user?.password_hash ?? (await DUMMY_PASSWORD_HASH_PROMISE());
    const passwordMatches = await verifyPassword(password, storedHash);
    if (!user || !user.password_hash || !passwordMatches || user.role !== 'admin') {
      throw new UnauthorizedError(INVALID_LOGIN_MESSAGE);
    }

    const token = generateSessionToken();
    await this.dataSource.transaction(async (em) => {
      await em.query('DELETE FROM login_failures WHERE email_key = $1', [emailKey]);
      // Sessions of this user that have ended are of no further use.
      await em.query(
        `DELETE FROM admin_sessions WHERE organization_id = $1 AND user_id = $2
           AND (expires_at <= $3 OR last_seen_at <= $4)`,
        [user.organization_id, user.id, now, new Date(now.getTime() - SESSION_IDLE_MS)],
      );
      await em.query(
        `INSERT INTO admin_sessions (id, organization_id, user_id, token_hash, created_at, last_seen_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $5, $6)`,
        [newId(), user.organization_id, user.id, hashSessionToken(token), now, sessionExpiry(now)],
      );
    });
    return {
      token,
      user: { userId: user.id, organizationId: user.organization_id, role: user.role, email: user.email, name: user.name },
    };
  }

  /** The signed-in user for a session token, or null when the token is unknown, idle too long or expired. */
  async resolve(token: string): Promise<AdminSessionInfo | null> {
    if (!SESSION_TOKEN_PATTERN.test(token)) return null;
    const now = this.clock.now();
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT s.id, s.organization_id, s.user_id, s.created_at, s.last_seen_at, s.expires_at, u.email, u.name, u.role
         FROM admin_sessions s
         JOIN users u ON u.organization_id = s.organization_id AND u.id = s.user_id
        WHERE s.token_hash = $1`,
      [hashSessionToken(token)],
    );
    const row = rows[0];
    if (!row) return null;
    const times = { createdAt: row.created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
    if (!isSessionActive(times, now)) {
      await this.dataSource.query('DELETE FROM admin_sessions WHERE id = $1', [row.id]);
      return null;
    }
    if (needsTouch(times, now)) {
      await this.dataSource.query('UPDATE admin_sessions SET last_seen_at = greatest(last_seen_at, $2) WHERE id = $1', [row.id, now]);
    }
    return { userId: row.user_id, organizationId: row.organization_id, role: row.role, email: row.email, name: row.name };
  }

  /** Deletes the session server-side; true when there was one. */
  async logout(token: string): Promise<boolean> {
    if (!SESSION_TOKEN_PATTERN.test(token)) return false;
    const result: [unknown[], number] = await this.dataSource.query('DELETE FROM admin_sessions WHERE token_hash = $1', [hashSessionToken(token)]);
    return result[1] > 0;
  }

  /** Drops aged-out failures and ended sessions now and then, off the request path. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    const windowStart = new Date(now.getTime() - LOGIN_WINDOW_MS);
    const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
    Promise.all([
      this.dataSource.query('DELETE FROM login_failures WHERE attempted_at <= $1', [windowStart]),
      this.dataSource.query('DELETE FROM admin_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleSince]),
    ]).catch((error: unknown) => this.logger.warn({ err: error }, 'could not sweep sessions and login failures'));
  }
}
