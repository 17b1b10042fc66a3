import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, isDatabaseUnavailable, newId } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { IDEMPOTENCY_STALE_MS, IDEMPOTENCY_TTL_MS } from '../domain/request-fingerprint';

export interface StoredResponse {
  status: number;
  body: unknown;
  location: string | null;
}

export type IdempotencyBegin =
  | { kind: 'started'; attemptId: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

interface KeyRow {
  attempt_id: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  response_location: string | null;
  locked_at: Date;
  expires_at: Date;
}

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** How often claims that may have landed during an outage are looked for again, and how many times. */
const LATE_CLAIM_RETRY_MS = 2000;
const LATE_CLAIM_ROUNDS = 5;
/** Claims remembered for that at most; past it, the claim ends when it goes stale as after a crash. */
const LATE_CLAIMS_MAX = 10_000;

/**
 * Idempotency records in PostgreSQL, one per (organization, key). The unique constraint decides
 * which of several concurrent requests runs; the others see `in_progress`.
 */
@Injectable()
export class IdempotencyStore implements OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private lastSweep = 0;
  /** Attempts whose claim failed for want of a database, with the rounds left to delete it. */
  private readonly lateClaims = new Map<string, number>();
  private lateClaimTimer: NodeJS.Timeout | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async begin(organizationId: string, key: string, requestHash: string): Promise<IdempotencyBegin> {
    const now = this.clock.now();
    this.sweep(now);
    for (let round = 0; round < 3; round++) {
      const attemptId = newId();
      // Takes the key when it is free or its record has expired.
      const claimed: Array<{ attempt_id: string }> = await this.claiming(attemptId, () => this.dataSource.query(
        `INSERT INTO idempotency_keys (attempt_id, organization_id, key, request_hash, state, created_at, locked_at, expires_at)
         VALUES ($1, $2, $3, $4, 'in_progress', $5, $5, $6)
         ON CONFLICT (organization_id, key) DO UPDATE
            SET attempt_id = EXCLUDED.attempt_id, request_hash = EXCLUDED.request_hash, state = 'in_progress',
                response_status = NULL, response_body = NULL, response_location = NULL,
                created_at = EXCLUDED.created_at, locked_at = EXCLUDED.locked_at, expires_at = EXCLUDED.expires_at
          WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
         RETURNING attempt_id`,
        [attemptId, organizationId, key, requestHash, now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS)],
      ));
      if (claimed.length > 0) return { kind: 'started', attemptId };

      const rows: KeyRow[] = await this.dataSource.query(
        `SELECT attempt_id, request_hash, state, response_status, response_body, response_location, locked_at, expires_at
           FROM idempotency_keys WHERE organization_id = $1 AND key = $2`,
        [organizationId, key],
      );
      const row = rows[0];
      if (!row) continue; // released between the two statements: try again
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.state === 'completed') {
        return {
          kind: 'replay',
          response: {
            status: row.response_status ?? 200,
            body: row.response_body === null ? undefined : JSON.parse(row.response_body),
            location: row.response_location,
          },
        };
      }
      if (now.getTime() - row.locked_at.getTime() < IDEMPOTENCY_STALE_MS) return { kind: 'in_progress' };
      // The first attempt died without an answer (its process stopped): this request takes over.
      const taken: Array<{ attempt_id: string }> = await this.claiming(attemptId, () =>
        this.dataSource.query(
          `UPDATE idempotency_keys SET attempt_id = $3, locked_at = $4
            WHERE organization_id = $1 AND key = $2 AND attempt_id = $5 AND state = 'in_progress'
            RETURNING attempt_id`,
          [organizationId, key, attemptId, now, row.attempt_id],
        ),
      );
      const updated = (taken as unknown as [unknown[], number])[0] ?? [];
      if (updated.length > 0) return { kind: 'started', attemptId };
    }
    return { kind: 'in_progress' };
  }

  async complete(attemptId: string, response: StoredResponse): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $2, response_body = $3, response_location = $4
        WHERE attempt_id = $1 AND state = 'in_progress'`,
      [attemptId, response.status, response.body === undefined ? null : JSON.stringify(response.body), response.location],
    );
  }

  /** The request failed: the key is released so the client may retry it. */
  async release(attemptId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE attempt_id = $1 AND state = 'in_progress'`, [attemptId]);
  }

  onApplicationShutdown(): void {
    clearInterval(this.lateClaimTimer);
  }

  /**
   * Runs a statement that claims the key for `attemptId`. When it fails because the database cannot be
   * reached, it may still land once the database answers again (a statement sent to a server that
   * stopped answering runs when it resumes), leaving the key "in progress" with nobody behind it. No
   * handler ran for that attempt, so its claim is deleted once the database answers: a retry with the
   * same key then runs, instead of waiting for the claim to go stale.
   */
  private async claiming<R>(attemptId: string, claim: () => Promise<R>): Promise<R> {
    try {
      return await claim();
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.releaseLater(attemptId);
      throw error;
    }
  }

  private releaseLater(attemptId: string): void {
    if (this.lateClaims.size >= LATE_CLAIMS_MAX) return;
    this.lateClaims.set(attemptId, LATE_CLAIM_ROUNDS);
    this.lateClaimTimer ??= setInterval(() => void this.releaseLateClaims(), LATE_CLAIM_RETRY_MS).unref();
  }

  /** Deletes what landed of the claims made during an outage; each is looked for a few rounds, since it may land late. */
  private async releaseLateClaims(): Promise<void> {
    for (const [attemptId, rounds] of this.lateClaims) {
      try {
        const [, deleted] = (await this.dataSource.query(`DELETE FROM idempotency_keys WHERE attempt_id = $1 AND state = 'in_progress'`, [attemptId])) as [unknown, number];
        if (deleted > 0 || rounds <= 1) this.lateClaims.delete(attemptId);
        else this.lateClaims.set(attemptId, rounds - 1);
      } catch {
        return; // still away: the next round tries again
      }
    }
    if (this.lateClaims.size === 0) {
      clearInterval(this.lateClaimTimer);
      this.lateClaimTimer = undefined;
    }
  }

  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    this.dataSource
      .query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now])
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not sweep expired idempotency keys'));
  }
}
