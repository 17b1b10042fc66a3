'use strict';
// What the single-purpose benchmarks (bench:webhooks, bench:feeds) share: the build, an embedded
// PostgreSQL with the app's migrations, an organization with an API key, and the built server.

const { spawn, execSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createHash, randomBytes } = require('node:crypto');

const ROOT = path.resolve(__dirname, '..', '..');

/** `--name=value` arguments as an object. */
function parseArgs(argv) {
  return Object.fromEntries(argv.map((a) => a.replace(/^--/, '').split('=')));
}

/** Builds (unless --no-build), starts PostgreSQL, migrates; `stop()` removes everything. */
async function startDatabase(name, args) {
  if (!('no-build' in args)) execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' });
  require('../register-paths');
  const { startEmbeddedPostgres, freePort, migrateDatabase } = require(path.join(ROOT, 'dist/libs/shared/src'));
  const { ALL_MIGRATIONS } = require(path.join(ROOT, 'dist/apps/api/src/migrations'));
  const { Client } = require('pg');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `almanac-bench-${name}-`));
  const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
  await migrateDatabase(pg.url, ALL_MIGRATIONS);
  const db = new Client({ connectionString: pg.url });
  await db.connect();
  return {
    url: pg.url,
    db,
    freePort,
    stop: async () => {
      await db.end();
      await pg.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An organization and an API key with the given scopes, written straight into the database. */
async function createTenant(db, scopes) {
  const [org] = (await db.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Bench') RETURNING id`)).rows;
  const key = `alm_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;
  await db.query(`INSERT INTO api_keys (id, organization_id, name, prefix, key_hash, scopes) VALUES (gen_random_uuid(), $1, 'bench', $2, $3, $4)`, [
    org.id,
    key.slice(0, 12),
    createHash('sha256').update(key).digest('hex'),
    scopes,
  ]);
  return { orgId: org.id, auth: { Authorization: `Bearer ${key}` } };
}

/**
 * The built server on a free port; resolves once it listens. The per-key, per-connection and
 * calendar-feed limits are off; the per-client limit of /public/v1 stays on but out of reach, so a
 * public route is measured with its one statement of counting (every load comes from one address).
 */
async function startServer(database, env) {
  const port = await database.freePort();
  const server = spawn(process.execPath, ['-r', './tools/register-paths.js', 'dist/apps/api/src/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      MAX_CONNECTIONS_PER_CLIENT: '0',
      CALENDAR_FEED_RATE_LIMIT_PER_MINUTE: '0',
      CALENDAR_FEED_CLIENT_RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => server.stdout.on('data', (c) => String(c).includes('listening') && resolve()));
  return {
    base: `http://127.0.0.1:${port}`,
    pid: server.pid,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((r) => server.on('exit', r));
    },
  };
}

/** Writes a report under bench/results and prints it. */
function writeReport(file, text) {
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', file), text);
  process.stdout.write(`${text}\n`);
}

module.exports = { parseArgs, startDatabase, createTenant, startServer, writeReport };
