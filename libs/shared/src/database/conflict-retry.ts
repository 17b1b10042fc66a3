import { setTimeout as delay } from 'node:timers/promises';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { pgErrorOf } from './pg-errors';

/** `serialization_failure`: a transaction could not be ordered with concurrent ones. */
export const PG_SERIALIZATION_FAILURE = '40001';
/** `deadlock_detected`: two transactions waited for each other and the database aborted one. */
export const PG_DEADLOCK_DETECTED = '40P01';

/** How many times a unit of work is run in all before its transient conflict is answered. */
export const CONFLICT_ATTEMPTS = 5;

/**
 * True when the database aborted the statement or transaction only because of concurrent ones,
 * with nothing wrong in the request: running it again is the cure. The common case is two
 * overlapping booking inserts that each wait for the other's index entry (an exclusion constraint
 * checks after inserting), which PostgreSQL ends as a deadlock.
 */
export function isTransientConflict(error: unknown): boolean {
  const { code } = pgErrorOf(error);
  return code === PG_DEADLOCK_DETECTED || code === PG_SERIALIZATION_FAILURE;
}

/**
 * Runs `work`, and again (at most CONFLICT_ATTEMPTS times in all) while it fails with a transient
 * conflict; `work` must be a whole transaction or one statement outside any, which the failure rolled
 * back entirely. A short random pause first, so that the two sides of a deadlock do not meet again.
 * After the last attempt the conflict is thrown (answered 409 `write_conflict`).
 */
export async function retryTransientConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransientConflict(error)) throw error;
      await delay(Math.random() * 10 * 2 ** attempt);
    }
  }
}

type Work<T> = (manager: EntityManager) => Promise<T>;

/** The data source's own manager: each transaction it opens is retried whole on a transient conflict. */
class ConflictRetryingEntityManager extends EntityManager {
  override transaction<T>(runInTransaction: Work<T>): Promise<T>;
  override transaction<T>(isolationLevel: IsolationLevel, runInTransaction: Work<T>): Promise<T>;
  override transaction<T>(first: IsolationLevel | Work<T>, second?: Work<T>): Promise<T> {
    const run = () => (typeof first === 'function' ? super.transaction(first) : super.transaction(first, second!));
    return retryTransientConflicts(run);
  }
}

/**
 * The application's data source. Deadlocks and serialization failures are retried here, in one
 * place, for every repository and service: a transaction opened with `dataSource.transaction(…)` (or
 * the data source's manager) runs again whole; a statement run outside any transaction runs again.
 * A statement inside a transaction is not retried alone (the transaction is already aborted): its
 * transaction is. So the database's verdict reaches the request as what it is (409
 * `booking_overlap`, a success, …), never as a 500.
 */
export class ConflictRetryingDataSource extends DataSource {
  override createEntityManager(queryRunner?: QueryRunner): EntityManager {
    // Managers of a query runner (a transaction's included) are TypeORM's own.
    return queryRunner ? super.createEntityManager(queryRunner) : new ConflictRetryingEntityManager(this);
  }

  override query<T = unknown>(query: string, parameters?: unknown[], queryRunner?: QueryRunner): Promise<T> {
    if (queryRunner?.isTransactionActive) return super.query<T>(query, parameters, queryRunner);
    return retryTransientConflicts(() => super.query<T>(query, parameters, queryRunner));
  }
}
