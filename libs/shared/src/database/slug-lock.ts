import type { EntityManager } from 'typeorm';

/**
 * Serializes slug generation from one base in one organization and table until the transaction
 * ends, so concurrent creates without a slug each see the others' slugs and never collide.
 */
export async function lockSlugBase(em: EntityManager, table: string, organizationId: string, base: string): Promise<void> {
  await em.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || '.slug:' || $2 || ':' || $3, 0))`, [table, organizationId, base]);
}
