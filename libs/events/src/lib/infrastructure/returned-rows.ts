/**
 * Rows of an `UPDATE … RETURNING` or `DELETE … RETURNING` run through TypeORM's `query()`, which
 * answers those two commands with `[rows, affectedCount]` instead of the rows.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
