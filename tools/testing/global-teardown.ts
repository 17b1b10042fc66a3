import type { EmbeddedDatabase } from '../../libs/shared/src';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __ALMANAC_PG__?: EmbeddedDatabase }).__ALMANAC_PG__;
  if (server) await server.stop();
}
