import 'reflect-metadata';
import type { AppConfig } from '@almanac/shared';
import { DomainError } from '@almanac/shared/domain';
import { type Flags, helpText, type IdentityCommand, isIdentityCommand, parseArgs, runIdentityCommand, UsageError, USAGE, validateFlags } from './commands';

// The CLI (README.md, "Command line"): JSON on stdout, errors as JSON on stderr, logs off. The kernel,
// Nest and the app are loaded only once a command is to run, so help and usage errors answer at once.

async function migrate(config: AppConfig): Promise<Record<string, unknown>> {
  const [{ migrateDatabase, startEmbeddedPostgres }, { ALL_MIGRATIONS }] = await Promise.all([
    import('@almanac/shared'),
    import('../../apps/api/src/migrations'),
  ]);
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir });
  try {
    return { applied: await migrateDatabase(config.databaseUrl ?? embedded!.url, ALL_MIGRATIONS) };
  } finally {
    await embedded?.stop();
  }
}

async function run(argv: readonly string[]): Promise<Record<string, unknown>> {
  const { command, flags } = parseArgs(argv);
  if (command === 'migrate') {
    if (Object.keys(flags).length > 0) throw new UsageError('migrate takes no flags');
  } else if (isIdentityCommand(command)) {
    validateFlags(command, flags);
  } else {
    throw new UsageError(`unknown command "${command}"`);
  }
  const { AppConfig, EmbeddedDatabaseInUseError } = await import('@almanac/shared');
  const config = new AppConfig({ ...AppConfig.fromEnv(), logLevel: 'silent', seedDemo: false });
  try {
    return command === 'migrate' ? await migrate(config) : await inTheApp(command, flags, config);
  } catch (error) {
    if (error instanceof EmbeddedDatabaseInUseError) throw new DomainError('database_in_use', error.message);
    throw error;
  }
}

/** Runs an identity command in the application's own wiring. */
async function inTheApp(command: IdentityCommand, flags: Flags, config: AppConfig): Promise<Record<string, unknown>> {
  const [{ NestFactory }, { IdentityService }, { AppModule }] = await Promise.all([
    import('@nestjs/core'),
    import('@almanac/identity'),
    import('../../apps/api/src/app.module'),
  ]);
  // The application's own wiring (and its start-up migrations), without the HTTP server.
  const app = await NestFactory.createApplicationContext(AppModule.register({ config }), { logger: false, abortOnError: false });
  try {
    return await runIdentityCommand(app.get(IdentityService), command, flags);
  } finally {
    await app.close();
  }
}

function errorBody(error: unknown): { error: Record<string, unknown> } {
  if (error instanceof UsageError) return { error: { code: 'usage', message: error.message } };
  if (error instanceof DomainError) {
    return { error: { code: error.code, message: error.message, ...(error.errors ? { errors: error.errors } : {}) } };
  }
  return { error: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
}

function main(argv: readonly string[]): void {
  let help: string | null;
  try {
    help = helpText(argv);
  } catch (error) {
    fail(error);
    return;
  }
  if (help !== null) {
    // Words for a person, not JSON: help is the one answer that is not a result.
    process.stdout.write(`${help}\n`);
    process.exit(0);
  }
  run(argv).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    fail,
  );
}

/** The error as one JSON line on stderr (a usage error followed by the usage in words, for a person); exit 2 or 1. */
function fail(error: unknown): never {
  const usage = error instanceof UsageError ? `\n${USAGE}\n` : '';
  process.stderr.write(`${JSON.stringify(errorBody(error))}\n${usage}`);
  process.exit(error instanceof UsageError ? 2 : 1);
}

main(process.argv.slice(2));
