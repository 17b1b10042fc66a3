import { Logger, PinoLogger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';

/**
 * Nest's start-up chatter: a line per module (InstanceLoader) and per controller and route
 * (RoutesResolver, RouterExplorer), over a hundred lines that would push the first-run credentials
 * off the screen. Still there at `LOG_LEVEL=debug`.
 */
const STARTUP_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's logs as JSON lines through the app's pino instance, its start-up inventory at debug level. */
export class AppLogger extends Logger {
  constructor(pino: Pino) {
    super(new PinoLogger({ pinoHttp: { logger: pino } }), {});
  }

  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && STARTUP_CONTEXTS.has(context)) super.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}
