import { Injectable } from '@nestjs/common';
import { containsPattern, rowsOf } from '@almanac/shared';
import type { EntityManager } from 'typeorm';

/** The answers kept for Idempotency-Key replays that may hold a person's data. */
@Injectable()
export class StoredAnswerErasureRepository {
  /** Kept answers of the organization holding `address` (any case) or one of `recordIds`, locked. */
  async lockAnswersHolding(em: EntityManager, organizationId: string, address: string, recordIds: string[]): Promise<Array<{ attempt_id: string; response_body: string }>> {
    return rowsOf(
      em,
      `SELECT attempt_id, response_body FROM idempotency_keys
        WHERE organization_id = $1 AND response_body IS NOT NULL
          AND (response_body ILIKE $2 ESCAPE '\\' OR response_body LIKE ANY ($3::text[]))
        ORDER BY attempt_id FOR UPDATE`,
      [organizationId, containsPattern(address), recordIds.map(containsPattern)],
    );
  }

  async replaceBodies(em: EntityManager, organizationId: string, answers: ReadonlyArray<{ attemptId: string; body: string }>): Promise<void> {
    if (answers.length === 0) return;
    await em.query(
      `UPDATE idempotency_keys k SET response_body = u.body
         FROM unnest($2::uuid[], $3::text[]) AS u(attempt_id, body)
        WHERE k.organization_id = $1 AND k.attempt_id = u.attempt_id`,
      [organizationId, answers.map((a) => a.attemptId), answers.map((a) => a.body)],
    );
  }
}
