import 'reflect-metadata';
import { AppConfig, DomainError, EmbeddedDatabaseInUseError, migrateDatabase, startEmbeddedPostgres } from '@almanac/shared';
import { isIdentityCommand, parseArgs, runIdentityCommand, UsageError, USAGE, validateFlags } from './commands';

/** The CLI (README.md, "Command line"): JSON on stdout, errors as JSON on stderr, logs off. */
function cliConfig(): AppConfig {
  return new AppConfig({ ...AppConfig.fromEnv(), logLevel: 'silent', seedDemo: false });
}

async function migrate(config: AppConfig): Promise<Record<string, unknown>> {
  const { ALL_MIGRATIONS } = await import('../../apps/api/src/migrations');
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir });
  try {
    return { applied: await migrateDatabase(config.databaseUrl ?? embedded!.url, ALL_MIGRATIONS) };
  } finally {
    await embedded?.stop();
  }
}

async function run(argv: readonly string[]): Promise<Record<string, unknown>> {
  const { command, flags } = parseArgs(argv);
  const config = cliConfig();
  if (command === 'migrate') {
    if (Object.keys(flags).length > 0) throw new UsageError('migrate takes no flags');
    return migrate(config);
  }
  if (!isIdentityCommand(command)) throw new UsageError(`unknown command "${command}"`);
  validateFlags(command, flags);
  // Loaded only now, so that a usage error answers at once.
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
  if (error instanceof UsageError) return { error: { code: 'usage', message: error.message, usage: USAGE } };
  if (error instanceof DomainError) {
    return { error: { code: error.code, message: error.message, ...(error.errors ? { errors: error.errors } : {}) } };
  }
  if (error instanceof EmbeddedDatabaseInUseError) return { error: { code: 'database_in_use', message: error.message } };
  return { error: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
}

run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${JSON.stringify(errorBody(error))}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
