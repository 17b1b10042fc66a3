import type { SqlStatement } from './field-table';

/**
 * The advisory lock that serializes slug generation from one base in one organization and table
 * until the transaction ends, so concurrent creates without a slug each see the others' slugs and
 * never collide. A repository runs it inside the create's transaction (`Transactions.rowsInTransaction`).
 */
export function slugBaseLock(table: string, organizationId: string, base: string): SqlStatement {
  return {
    text: `SELECT pg_advisory_xact_lock(hashtextextended($1 || '.slug:' || $2 || ':' || $3, 0))`,
    values: [table, organizationId, base],
  };
}
