import type { EmbeddedDatabase } from '../../libs/shared/src';
import type { PgBouncer } from './pgbouncer';

export default async function globalTeardown(): Promise<void> {
  const bouncer = (globalThis as { __ALMANAC_PGBOUNCER__?: PgBouncer }).__ALMANAC_PGBOUNCER__;
  if (bouncer) await bouncer.stop();
  const server = (globalThis as { __ALMANAC_PG__?: EmbeddedDatabase }).__ALMANAC_PG__;
  if (server) await server.stop();
}
