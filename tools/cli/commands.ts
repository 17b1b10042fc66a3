import type { IdentityService } from '@almanac/identity';
import { DomainError } from '@almanac/shared/domain';

/** A command line that cannot be run as given (exit code 2). */
export class UsageError extends Error {}

export type Flags = Record<string, string>;

interface CommandHelp {
  readonly synopsis: string;
  /** What it does and prints, in words. */
  readonly description: string;
}

/** Every command, in the order `--help` lists them. */
export const COMMANDS: Readonly<Record<string, CommandHelp>> = {
  'org:create': {
    synopsis: 'org:create --name NAME',
    description: 'Creates an organization (a tenant) and prints {id, name}.',
  },
  'user:create': {
    synopsis: 'user:create --org ORG_ID --email EMAIL --name NAME --password PASSWORD [--role admin|author]',
    description:
      'Creates a user of the organization and prints {id, email, role}. The role defaults to admin; admins\n' +
      'sign in to the admin console (/admin) and need a password of at least 8 characters. Authors appear\n' +
      'as post authors and cannot sign in. The e-mail must be unused (compared case-insensitively).',
  },
  'api-key:create': {
    synopsis:
      'api-key:create --org ORG_ID [--name NAME] [--scopes a,b] [--user USER_ID]\n' +
      '                 [--publishable [--origins https://a.example,https://b.example] [--site-url URL]]',
    description:
      'Creates an API key of the organization and prints {id, key, prefix, scopes}. The key is shown this\n' +
      'once (only its hash is stored). --scopes is a comma-separated list (bookings:read, bookings:write,\n' +
      'events:read, events:write, posts:read, posts:write, webhooks:read, webhooks:write); without it the\n' +
      'key has all of them. --user ties the key to a user of the organization.\n' +
      '--publishable makes a key for web pages (alm_pub_…): it reads published posts and events only, and\n' +
      'browsers may use it from the --origins listed; --site-url is where the posts are published (links\n' +
      'in the Atom feed). It also prints kind, allowed_origins and site_url.',
  },
  'api-key:revoke': {
    synopsis: 'api-key:revoke --id KEY_ID',
    description: 'Revokes an API key (requests with it get 401 from then on) and prints {id, revoked: true}.',
  },
  migrate: {
    synopsis: 'migrate',
    description: 'Applies the database migrations not applied yet and prints {applied: [names]}.',
  },
  help: {
    synopsis: 'help [COMMAND]   (also --help, -h)',
    description: 'Prints this text, or what one command does, in words; exits 0.',
  },
};

export const USAGE = `Usage: npm run cli -- <command> [flags]

${Object.values(COMMANDS)
  .map((command) => `  ${command.synopsis}`)
  .join('\n')}

Prints one JSON object on stdout. On error: a JSON object on stderr and a non-zero exit code
(2 for a command line that cannot be run as given, 1 for anything else).
Uses DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (default ./.data) when it is unset;
the embedded database cannot be shared, so stop a running server first.
\`npm run cli -- help <command>\` says what a command does.`;

/**
 * The text `help`, `--help` or `-h` prints (alone: every command; followed by a command, or after a
 * command as `<command> --help`: that command), or null when the arguments do not ask for help.
 */
export function helpText(argv: readonly string[]): string | null {
  const [first, ...rest] = argv;
  let topic: string | undefined;
  if (first === 'help' || first === '--help' || first === '-h') {
    if (rest.length > 1) throw new UsageError(`${first} takes at most one command`);
    topic = rest[0];
  } else if (first !== undefined && rest.includes('--help')) {
    topic = first;
  } else {
    return null;
  }
  if (topic === undefined) return USAGE;
  const help = Object.hasOwn(COMMANDS, topic) ? COMMANDS[topic] : undefined;
  if (!help) throw new UsageError(`unknown command "${topic}"`);
  return `Usage: npm run cli -- ${help.synopsis}\n\n${help.description}`;
}

/** Flags that take no value: present means true. */
const SWITCHES = new Set(['publishable']);

/** `--name x` and `--name=x`; every flag but a switch (`--publishable`) takes a value, none may repeat. */
export function parseArgs(argv: readonly string[]): { command: string; flags: Flags } {
  const [command, ...rest] = argv;
  if (!command) throw new UsageError('no command given');
  const flags: Flags = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith('--') || arg.length < 3) throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    let value: string | undefined;
    if (SWITCHES.has(name)) {
      if (eq > 0) throw new UsageError(`--${name} takes no value`);
      value = 'true';
    } else if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = rest[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      i++;
    }
    if (name in flags) throw new UsageError(`--${name} given twice`);
    flags[name] = value;
  }
  return { command, flags };
}

function take(flags: Flags, allowed: { required: string[]; optional?: string[] }): Flags {
  const known = new Set([...allowed.required, ...(allowed.optional ?? [])]);
  const unknown = Object.keys(flags).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new UsageError(`unknown flag(s): ${unknown.map((n) => `--${n}`).join(', ')}`);
  const missing = allowed.required.filter((name) => !flags[name]);
  if (missing.length > 0) throw new UsageError(`missing flag(s): ${missing.map((n) => `--${n}`).join(', ')}`);
  return flags;
}

export const IDENTITY_COMMANDS = ['org:create', 'user:create', 'api-key:create', 'api-key:revoke'] as const;
export type IdentityCommand = (typeof IDENTITY_COMMANDS)[number];

export function isIdentityCommand(command: string): command is IdentityCommand {
  return (IDENTITY_COMMANDS as readonly string[]).includes(command);
}

/** Checks the flags of a command before anything is started. */
export function validateFlags(command: IdentityCommand, flags: Flags): void {
  switch (command) {
    case 'org:create':
      take(flags, { required: ['name'] });
      return;
    case 'user:create':
      take(flags, { required: ['org', 'email', 'name', 'password'], optional: ['role'] });
      if (flags['role'] !== undefined && flags['role'] !== 'admin' && flags['role'] !== 'author') {
        throw new UsageError('--role must be admin or author');
      }
      return;
    case 'api-key:create':
      take(flags, { required: ['org'], optional: ['name', 'scopes', 'user', 'publishable', 'origins', 'site-url'] });
      if (flags['publishable'] === undefined && (flags['origins'] !== undefined || flags['site-url'] !== undefined)) {
        throw new UsageError('--origins and --site-url need --publishable');
      }
      return;
    case 'api-key:revoke':
      take(flags, { required: ['id'] });
      return;
  }
}

/** Runs one identity command whose flags `validateFlags` has accepted; the result is what the CLI prints. */
export async function runIdentityCommand(identity: IdentityService, command: IdentityCommand, flags: Flags): Promise<Record<string, unknown>> {
  switch (command) {
    case 'org:create':
      return identity.createOrganization(flags['name']!);
    case 'user:create': {
      const user = await identity.createUser({
        organizationId: flags['org']!,
        email: flags['email']!,
        name: flags['name']!,
        password: flags['password']!,
        role: (flags['role'] as 'admin' | 'author' | undefined) ?? 'admin',
      });
      return { id: user.id, email: user.email, role: user.role };
    }
    case 'api-key:create': {
      const list = (value: string | undefined) =>
        value
          ?.split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0);
      const publishable = flags['publishable'] !== undefined;
      const key = await identity.createApiKey({
        organizationId: flags['org']!,
        name: flags['name'],
        scopes: list(flags['scopes']),
        userId: flags['user'] ?? null,
        kind: publishable ? 'publishable' : 'secret',
        allowedOrigins: list(flags['origins']),
        siteUrl: flags['site-url'],
      });
      const printed = { id: key.id, key: key.key, prefix: key.prefix, scopes: key.scopes };
      return publishable ? { ...printed, kind: key.kind, allowed_origins: key.record.allowedOrigins, site_url: key.record.siteUrl } : printed;
    }
    case 'api-key:revoke': {
      const revoked = await identity.revokeApiKey(flags['id']!);
      if (!revoked) throw new DomainError('not_found', 'No API key has this id.');
      return { id: flags['id']!, revoked: true };
    }
  }
}
