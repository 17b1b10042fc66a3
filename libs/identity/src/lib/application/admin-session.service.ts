import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, AuditLog, AuditSource, Clock, DomainError, newId, UnauthorizedError } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { AdminSessionInfo, idleSince, isSessionActive, needsTouch, newAdminSession, sessionInfoOf } from '../domain/admin-session';
import { loginClientKey } from '../domain/login-failure';
import { LOGIN_KNOWN_CLIENT_MS, LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, loginEmailKey, loginThrottle } from '../domain/login-throttle';
import { DUMMY_PASSWORD_HASH_PROMISE, verifyPassword } from '../domain/password';
import { generateSessionToken, hashSessionToken, SESSION_TOKEN_PATTERN } from '../domain/session-token';
import { maySignIn } from '../domain/user';
import { SessionRepository } from '../infrastructure/session.repository';
import { UserRepository } from '../infrastructure/user.repository';

/** Too many failed logins for one e-mail, or from one client; the controller answers 429 with Retry-After. */
export class LoginThrottledError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    byClient = false,
  ) {
    super(
      'rate_limited',
      byClient
        ? 'Too many failed sign-in attempts from this client. Try again later; an account that signed in from this client in the last 30 days may still sign in with its password.'
        : 'Too many failed sign-in attempts for this e-mail. Try again later.',
    );
  }
}

/** One message for every refused sign-in, so the answer never tells which part was wrong. */
export const INVALID_LOGIN_MESSAGE = 'Invalid e-mail or password.';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** The throttle's verdict on one attempt: refused, or on to the password check (noting a client over its limit). */
type Throttle = { refused: LoginThrottledError } | { refused: null; clientOverLimit: { retryAfterSeconds: number } | null };

/** Admin sign-in, sessions kept in PostgreSQL, and the per-e-mail and per-client login throttle. */
@Injectable()
export class AdminSessionService {
  private readonly logger = new Logger('AdminSessions');
  private lastSweep = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Verifies the credentials of an admin and opens a session. Unknown e-mail, wrong password and a
   * non-admin account all raise the same UnauthorizedError after one scrypt verification each.
   * `client` is the client as per-client limits count it (TrustedProxies.clientOf); it is also the
   * address the audit log records for the attempt.
   * The audit log records the sign-in with the new session, and a refused one (no actor, the e-mail's
   * user as target) when the e-mail names a user: one of an unknown e-mail belongs to no organization.
   * A refusal is recorded off the answer's path, so that a known e-mail does not answer later than an
   * unknown one (by the time of one more commit). Attempts the throttle refuses are not recorded (their
   * number has no bound); the ones it lets reach the password check are, so the log grows no faster
   * than the throttle allows.
   */
  async login(email: string, password: string, client = '', requestId: string | null = null): Promise<{ token: string; user: AdminSessionInfo }> {
    const now = this.clock.now();
    const emailKey = loginEmailKey(email);
    const clientKey = loginClientKey(client);
    this.sweep(now);

    // Count the recent failures of this client and of this e-mail, and record this attempt as one
    // (until it succeeds), in one statement under a lock per client and one per e-mail: of concurrent
    // attempts, exactly as many as allowed reach the password check, and the locks are never held
    // across a round trip. A client over its limit is refused before any password is hashed, unless
    // this e-mail signed in from it recently: its admins are not locked out by a neighbour (or a
    // shared address) guessing other e-mails.
    const perClient = this.config.loginMaxFailuresPerClient;
    const admitted = await this.sessions.admitAttempt(
      this.dataSource.manager,
      { id: newId(), emailKey, clientKey, attemptedAt: now },
      {
        windowStart: new Date(now.getTime() - LOGIN_WINDOW_MS),
        perClientMax: Math.max(0, perClient),
        perEmailMax: LOGIN_MAX_FAILURES,
        knownSince: new Date(now.getTime() - LOGIN_KNOWN_CLIENT_MS),
      },
    );
    const throttle = this.verdict(admitted, now, perClient);
    if (throttle.refused) throw throttle.refused;

    const user = await this.users.findCredentialsByEmailKey(this.dataSource.manager, emailKey);
    // Always one scrypt verification, against a dummy hash when there is nothing to verify against.
    const storedHash = user?.passwordHash ?? (await DUMMY_PASSWORD_HASH_PROMISE());
    const passwordMatches = await verifyPassword(password, storedHash);
    if (!maySignIn(user) || !passwordMatches) {
      // Over the client's limit a wrong password is refused like any other attempt from there, so the
      // answer does not tell which e-mails signed in from this client.
      if (throttle.clientOverLimit) throw new LoginThrottledError(throttle.clientOverLimit.retryAfterSeconds, true);
      if (user) {
        this.audit
          .record(this.dataSource.manager, user.organizationId, { actor: null, ip: client || null, requestId }, 'auth.sign_in_failed', { type: 'user', id: user.id })
          .catch((error: unknown) => this.logger.warn({ err: error }, 'could not record a refused sign-in'));
      }
      throw new UnauthorizedError(INVALID_LOGIN_MESSAGE);
    }

    const token = generateSessionToken();
    await this.dataSource.transaction(async (em) => {
      await this.sessions.clearFailuresOfEmail(em, emailKey);
      await this.sessions.rememberClient(em, emailKey, clientKey, now);
      // Sessions of this user that have ended are of no further use.
      await this.sessions.deleteEndedOfUser(em, user, now, idleSince(now));
      await this.sessions.insert(em, newAdminSession(newId(), user, now), hashSessionToken(token));
      const source: AuditSource = { actor: { type: 'user', id: user.id, name: user.name }, ip: client || null, requestId };
      await this.audit.record(em, user.organizationId, source, 'auth.signed_in', { type: 'user', id: user.id });
    });
    return { token, user: sessionInfoOf(user) };
  }

  /** The signed-in user for a session token, or null when the token is unknown, idle too long or expired. */
  async resolve(token: string): Promise<AdminSessionInfo | null> {
    if (!SESSION_TOKEN_PATTERN.test(token)) return null;
    const now = this.clock.now();
    const em = this.dataSource.manager;
    const found = await this.sessions.findByTokenHash(em, hashSessionToken(token));
    if (!found) return null;
    const { session, user } = found;
    if (!isSessionActive(session, now)) {
      await this.sessions.delete(em, session.id);
      return null;
    }
    if (needsTouch(session, now)) await this.sessions.touch(em, session.id, now);
    return sessionInfoOf(user);
  }

  /** Deletes the session server-side, and records the sign-out of `session`'s user; true when there was one. */
  async logout(token: string, session: AdminSessionInfo, source: AuditSource): Promise<boolean> {
    if (!SESSION_TOKEN_PATTERN.test(token)) return false;
    return this.dataSource.transaction(async (em) => {
      const deleted = await this.sessions.deleteByTokenHash(em, hashSessionToken(token));
      if (deleted) await this.audit.record(em, session.organizationId, source, 'auth.signed_out', { type: 'user', id: session.userId });
      return deleted;
    });
  }

  /**
   * What the database decided, with Retry-After computed from the failures it read: refused by the
   * client's limit (not a known client) or the e-mail's, or on to the password check.
   */
  private verdict(admitted: { clientFailures: Date[]; knownClient: boolean; emailFailures: Date[]; recorded: boolean }, now: Date, perClient: number): Throttle {
    const byClient = perClient > 0 ? loginThrottle(admitted.clientFailures, now, perClient) : { allowed: true as const };
    if (!byClient.allowed && !admitted.knownClient) return { refused: new LoginThrottledError(byClient.retryAfterSeconds, true) };
    const byEmail = loginThrottle(admitted.emailFailures, now, LOGIN_MAX_FAILURES);
    if (!byEmail.allowed) return { refused: new LoginThrottledError(byEmail.retryAfterSeconds) };
    return { refused: null, clientOverLimit: byClient.allowed ? null : byClient };
  }

  /** Drops aged-out failures and ended sessions now and then, off the request path. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    const em = this.dataSource.manager;
    Promise.all([
      this.sessions.deleteFailuresBefore(em, new Date(now.getTime() - LOGIN_WINDOW_MS)),
      this.sessions.deleteKnownClientsBefore(em, new Date(now.getTime() - LOGIN_KNOWN_CLIENT_MS)),
      this.sessions.deleteEnded(em, now, idleSince(now)),
    ]).catch((error: unknown) => this.logger.warn({ err: error }, 'could not sweep sessions and login records'));
  }
}
