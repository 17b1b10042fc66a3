import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../libs/shared/src/database/embedded-postgres';

/** Set to 1 to run the apps under test through a real PgBouncer in transaction mode (`npm run test:pgbouncer`). */
export const PGBOUNCER_ENV = 'ALMANAC_TEST_PGBOUNCER';

/** Where Debian's `pgbouncer` package installs the binary; `PGBOUNCER_BIN` overrides it. */
export const PGBOUNCER_BIN = process.env['PGBOUNCER_BIN'] ?? '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `host:port` clients connect to instead of the server's. */
  readonly address: string;
  /** The generated configuration directory (pgbouncer.ini, userlist.txt, the log). */
  readonly dir: string;
  stop(): Promise<void>;
}

/** True when the pgbouncer binary runs. */
export function pgBouncerAvailable(): boolean {
  const result = spawnSync(PGBOUNCER_BIN, ['--version'], { stdio: 'ignore' });
  return result.status === 0;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts a real PgBouncer in transaction pooling mode in front of the PostgreSQL server that
 * `serverUrl` names, on a free port, with a configuration generated in a temporary directory.
 * Every database name is served (`* =`), so a database created after the start (one per test file)
 * is reachable through it under the same name. Clients authenticate with the server's own user and
 * password (SCRAM against the user list); PgBouncer logs in to the server with the same.
 */
export async function startPgBouncer(serverUrl: string): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'almanac-pgbouncer-'));
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const ini = [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || '5432'}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = scram-sha-256',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    'pool_mode = transaction',
    // Server connections per database: the app's pool (20) plus what a test holds open itself (a
    // transaction that blocks the app's 20, and a connection that watches them wait). A transaction
    // keeps its server connection to its end, so with fewer the watcher would queue behind the
    // blocked ones; between transactions the apps' clients (three processes of 20 in the
    // many-instances test) share these.
    'default_pool_size = 30',
    'max_client_conn = 1000',
    'max_db_connections = 0',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ];
  // PgBouncer refuses to run as root; then it switches to the account the Debian package created.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) ini.splice(ini.indexOf('[pgbouncer]') + 1, 0, 'user = postgres');
  writeFileSync(join(dir, 'pgbouncer.ini'), ini.join('\n'));
  writeFileSync(join(dir, 'userlist.txt'), `${quote(user)} ${quote(password)}\n`, { mode: 0o600 });
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    const uid = Number(ids.stdout.trim());
    const gid = Number(gids.stdout.trim());
    chmodSync(dir, 0o755);
    for (const file of ['pgbouncer.ini', 'userlist.txt']) chownSync(join(dir, file), uid, gid);
    chownSync(dir, uid, gid);
  }

  let exited = false;
  let output = '';
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.once('exit', () => (exited = true));

  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start: ${output.trim() || 'no output'} (configuration in ${dir})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  // A real login and statement through it, so a configuration PgBouncer accepts but cannot serve
  // (authentication, the server's address) fails here and not in every test.
  const through = new URL(serverUrl);
  through.host = `127.0.0.1:${port}`;
  const probe = new Client({ connectionString: through.toString() });
  try {
    await probe.connect();
    await probe.query('SELECT 1');
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`pgbouncer started but does not serve ${through.pathname}: ${(error as Error).message} (configuration in ${dir})`);
  } finally {
    await probe.end().catch(() => undefined);
  }

  return {
    address: `127.0.0.1:${port}`,
    dir,
    stop: async () => {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        // SIGTERM: PgBouncer's immediate shutdown (SIGINT would wait for its clients to leave).
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
