import 'reflect-metadata';
import { AppConfig } from '@almanac/shared';
import { createApp } from './bootstrap';

async function main(): Promise<void> {
  const config = AppConfig.fromEnv();
  const { app } = await createApp({ config });
  await app.listen(config.port);
  process.stdout.write(`Almanac listening on ${config.appUrl} (docs: ${config.appUrl}/docs)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Almanac failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
