/** PostgreSQL error codes the repositories translate into domain errors. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_EXCLUSION_VIOLATION = '23P01';
export const PG_CHECK_VIOLATION = '23514';

/** The SQLSTATE and constraint of a failed query, whatever wrapper the driver or ORM put around it. */
export function pgErrorOf(error: unknown): { code?: string; constraint?: string } {
  const candidate = (error as { driverError?: unknown })?.driverError ?? error;
  const { code, constraint } = (candidate ?? {}) as { code?: unknown; constraint?: unknown };
  return {
    code: typeof code === 'string' ? code : undefined,
    constraint: typeof constraint === 'string' ? constraint : undefined,
  };
}
