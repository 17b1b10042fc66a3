import { InvalidReferenceError, PG_FOREIGN_KEY_VIOLATION, pgErrorOf } from '@almanac/shared';

/** Translates a foreign-key violation on the organization or user into a domain error; rethrows anything else. */
export function translateReferenceError(error: unknown): never {
  const { code, constraint } = pgErrorOf(error);
  if (code === PG_FOREIGN_KEY_VIOLATION) {
    throw new InvalidReferenceError(constraint?.includes('user') ? 'user_id' : 'organization_id');
  }
  throw error;
}
