import { createTestDatabase, readTestDatabaseEnv, testDatabaseUrl } from '@almanac/shared/testing';
import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureBuilt, runCli } from './support/built-app';

/** `npm run cli -- …`: the built CLI in a child process, against a real database. */
describe('CLI (e2e)', () => {
  let database: { url: string; name: string; drop(): Promise<void> };
  let db: Client;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url });
  const json = (text: string) => JSON.parse(text) as Record<string, any>;
  /** The first line of stderr: the error as JSON (a usage error is followed by the usage in words). */
  const errorOf = (stderr: string) => json(stderr.split('\n')[0]!).error as Record<string, any>;

  beforeAll(async () => {
    await ensureBuilt();
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
  }, 300_000);
  afterAll(async () => {
    await db.end();
    await database.drop();
  });

  it('creates an organization, a user and API keys, and revokes a key, printing JSON only', async () => {
    const org = await cli('org:create', '--name', 'Acme Bookings');
    expect(org.code).toBe(0);
    expect(org.stderr).toBe('');
    const orgOut = json(org.stdout);
    expect(orgOut).toEqual({ id: expect.any(String), name: 'Acme Bookings' });
    expect((await db.query('SELECT name FROM organizations WHERE id = $1', [orgOut['id']])).rows).toEqual([
      { name: 'Acme Bookings' },
    ]);

    const user = await cli(
      'user:create',
      '--org',
      orgOut['id'],
      '--email',
      'Writer@Example.com',
      '--name',
      'Wri Ter',
      '--password',
      'secret-password',
      '--role',
      'author',
    );
    expect(user.code).toBe(0);
    const userOut = json(user.stdout);
    expect(userOut).toEqual({ id: expect.any(String), email: 'Writer@Example.com', role: 'author' });
    const [stored] = (
      await db.query('SELECT organization_id, role, password_hash FROM users WHERE id = $1', [userOut['id']])
    ).rows;
    expect(stored.organization_id).toBe(orgOut['id']);
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain('secret-password');

    const key = await cli(
      'api-key:create',
      '--org',
      orgOut['id'],
      '--name',
      'Website',
      '--scopes',
      'bookings:read,events:read',
      '--user',
      userOut['id'],
    );
    expect(key.code).toBe(0);
    const keyOut = json(key.stdout);
    expect(keyOut).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^alm_[0-9A-Za-z]{32}$/),
      prefix: keyOut['key'].slice(0, 12),
      scopes: ['bookings:read', 'events:read'],
    });
    const [keyRow] = (
      await db.query('SELECT name, key_hash, scopes, user_id, revoked_at FROM api_keys WHERE id = $1', [
        keyOut['id'],
      ])
    ).rows;
    expect(keyRow).toEqual({
      name: 'Website',
      key_hash: createHash('sha256').update(keyOut['key']).digest('hex'),
      scopes: ['bookings:read', 'events:read'],
      user_id: userOut['id'],
      revoked_at: null,
    });

    const allScopes = json((await cli('api-key:create', '--org', orgOut['id'])).stdout);
    // No --scopes: all eight, webhooks:read and webhooks:write included.
    expect(allScopes['scopes']).toEqual([
      'bookings:read',
      'bookings:write',
      'events:read',
      'events:write',
      'posts:read',
      'posts:write',
      'webhooks:read',
      'webhooks:write',
    ]);

    const revoke = await cli('api-key:revoke', '--id', keyOut['id']);
    expect(revoke.code).toBe(0);
    expect(json(revoke.stdout)).toEqual({ id: keyOut['id'], revoked: true });
    expect(
      (await db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyOut['id']])).rows[0].revoked_at,
    ).toBeInstanceOf(Date);
  }, 120_000);

  it.each([
    ['a missing flag', ['org:create'], 2, 'usage'],
    ['an unknown command', ['org:delete', '--name', 'x'], 2, 'usage'],
    ['an unknown flag', ['org:create', '--name', 'x', '--colour', 'red'], 2, 'usage'],
    ['a flag without value', ['api-key:revoke', '--id'], 2, 'usage'],
    [
      'a bad role',
      [
        'user:create',
        '--org',
        'x',
        '--email',
        'a@b.co',
        '--name',
        'n',
        '--password',
        'long-enough',
        '--role',
        'root',
      ],
      2,
      'usage',
    ],
    [
      'an unknown organization',
      ['api-key:create', '--org', '01a1fdec-0000-7000-8000-000000000000'],
      1,
      'invalid_reference',
    ],
    ['an organization id that is not a UUID', ['api-key:create', '--org', 'acme'], 1, 'invalid_reference'],
    ['an unknown key', ['api-key:revoke', '--id', '01a1fdec-0000-7000-8000-000000000000'], 1, 'not_found'],
  ])(
    'answers %s with a JSON error on stderr and a non-zero exit',
    async (_name, args, exitCode, code) => {
      const result = await cli(...args);
      expect(result.code).toBe(exitCode);
      expect(result.stdout).toBe('');
      expect(errorOf(result.stderr).code).toBe(code);
      if (code === 'usage') expect(result.stderr).toContain('Usage: npm run cli -- <command> [flags]\n');
      else expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    },
    60_000,
  );

  it('creates a publishable key with --publishable, its origins and site URL; refuses other scopes and origins without it', async () => {
    const org = json((await cli('org:create', '--name', 'Static site')).stdout);
    const created = await cli(
      'api-key:create',
      '--org',
      org['id'],
      '--name',
      'Website',
      '--publishable',
      '--origins',
      'https://www.example.com, http://localhost:8080',
      '--site-url',
      'https://www.example.com/blog',
    );
    expect(created.code).toBe(0);
    const out = json(created.stdout);
    expect(out).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^alm_pub_[0-9A-Za-z]{32}$/),
      prefix: out['key'].slice(0, 12),
      kind: 'publishable',
      scopes: ['posts:read', 'events:read'],
      allowed_origins: ['https://www.example.com', 'http://localhost:8080'],
      site_url: 'https://www.example.com/blog',
    });
    const [row] = (await db.query('SELECT kind, allowed_origins, site_url FROM api_keys WHERE id = $1', [out['id']])).rows;
    expect(row).toEqual({ kind: 'publishable', allowed_origins: ['https://www.example.com', 'http://localhost:8080'], site_url: 'https://www.example.com/blog' });

    const bare = json((await cli('api-key:create', '--org', org['id'], '--publishable')).stdout);
    expect(bare).toMatchObject({ kind: 'publishable', scopes: ['posts:read', 'events:read'], allowed_origins: [], site_url: null });
    const writes = await cli('api-key:create', '--org', org['id'], '--publishable', '--scopes', 'posts:write');
    expect(writes.code).toBe(1);
    expect(json(writes.stderr).error.code).toBe('validation_failed');
    const noSwitch = await cli('api-key:create', '--org', org['id'], '--origins', 'https://www.example.com');
    expect(noSwitch.code).toBe(2);
    expect(errorOf(noSwitch.stderr).code).toBe('usage');
    const valued = await cli('api-key:create', '--org', org['id'], '--publishable=yes');
    expect(valued.code).toBe(2);
  }, 120_000);

  it.each([
    ['--help', ['--help']],
    ['-h', ['-h']],
    ['help', ['help']],
  ])('answers %s with every command in words on stdout, exit 0, without touching a database', async (_name, args) => {
    // No DATABASE_URL and no embedded database directory: help needs neither.
    const result = await runCli(args, { DATA_DIR: '/nonexistent/almanac-help' });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: npm run cli -- <command> \[flags\]\n/);
    for (const command of ['org:create --name NAME', 'user:create --org ORG_ID', 'api-key:create --org ORG_ID', 'api-key:revoke --id KEY_ID', 'migrate', 'help [COMMAND]']) {
      expect(result.stdout).toContain(`  ${command}`);
    }
    expect(result.stdout).toContain('help <command>` says what a command does');
  });

  it.each([
    ['help user:create', ['help', 'user:create']],
    ['--help user:create', ['--help', 'user:create']],
    ['user:create --help', ['user:create', '--help']],
  ])('answers %s with that command in words', async (_name, args) => {
    const result = await runCli(args, { DATA_DIR: '/nonexistent/almanac-help' });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      'Usage: npm run cli -- user:create --org ORG_ID --email EMAIL --name NAME --password PASSWORD [--role admin|author]\n\n' +
        'Creates a user of the organization and prints {id, email, role}. The role defaults to admin; admins\n' +
        'sign in to the admin console (/admin) and need a password of at least 8 characters. Authors appear\n' +
        'as post authors and cannot sign in. The e-mail must be unused (compared case-insensitively).\n',
    );
  });

  it.each([
    ['help for an unknown command', ['help', 'org:delete'], 'unknown command "org:delete"'],
    ['help for two commands', ['help', 'org:create', 'migrate'], 'help takes at most one command'],
    ['no command', [], 'no command given'],
  ])('answers %s with the usage on stderr, exit 2', async (_name, args, message) => {
    const result = await runCli(args, { DATA_DIR: '/nonexistent/almanac-help' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(errorOf(result.stderr)).toEqual({ code: 'usage', message });
    expect(result.stderr).toContain('\nUsage: npm run cli -- <command> [flags]\n');
  });

  it('refuses unknown scopes, a short admin password and a taken e-mail', async () => {
    // Each call starts a process that loads the whole application (seconds on a busy machine): the
    // organization is made in SQL (org:create has its own test) and the four calls run at once. Two
    // of them ask for one e-mail in different cases: the database lets exactly one have it.
    const [org] = (await db.query<{ id: string }>(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Checks') RETURNING id`)).rows;
    const orgId = org!.id;
    const user = (email: string, name: string, password: string) =>
      cli('user:create', '--org', orgId, '--email', email, '--name', name, '--password', password);
    const [scopes, short, ...sameEmail] = await Promise.all([
      cli('api-key:create', '--org', orgId, '--scopes', 'bookings:read,admin:all'),
      user('a@example.com', 'A', 'short'),
      user('b@example.com', 'B', 'long-enough'),
      user('B@EXAMPLE.COM', 'B2', 'long-enough'),
    ]);
    expect(scopes.code).toBe(1);
    expect(json(scopes.stderr).error).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('admin:all'),
    });
    expect(short.code).toBe(1);
    expect(json(short.stderr).error.code).toBe('validation_failed');
    const created = sameEmail.filter((run) => run.code === 0);
    const taken = sameEmail.filter((run) => run.code !== 0);
    expect(created).toHaveLength(1);
    expect(json(created[0]!.stdout)['role']).toBe('admin');
    expect(taken.map((run) => [run.code, json(run.stderr).error.code])).toEqual([[1, 'email_taken']]);
    const users = (await db.query<{ id: string; email: string }>('SELECT id, email FROM users WHERE organization_id = $1', [orgId])).rows;
    expect(users).toEqual([{ id: json(created[0]!.stdout)['id'], email: json(created[0]!.stdout)['email'] }]);
    expect((await db.query('SELECT 1 FROM api_keys WHERE organization_id = $1', [orgId])).rows).toEqual([]);
  }, 60_000);

  it('migrate applies every migration to an empty database, then nothing', async () => {
    const env = readTestDatabaseEnv();
    const name = `cli_migrate_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: env.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = testDatabaseUrl(name);
    try {
      const first = await runCli(['migrate'], { DATABASE_URL: url });
      expect(first.code).toBe(0);
      // Every migration, in order: the same list the test template database was built with.
      const expected = (
        await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY timestamp')
      ).rows.map((r) => r.name);
      expect(expected.length).toBeGreaterThan(2);
      expect(json(first.stdout)['applied']).toEqual(expected);
      const second = await runCli(['migrate'], { DATABASE_URL: url });
      expect(json(second.stdout)).toEqual({ applied: [] });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 120_000);
});
