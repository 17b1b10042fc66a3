import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  AlmanacExpressAdapter,
  AppConfig,
  buildOpenApiDocument,
  Clock,
  createValidationPipe,
  type FrontDoorStep,
  jsonBodyMiddleware,
  loggableError,
  Metrics,
  precomputedHeadersStep,
  redactedUrl,
  requestIdStep,
  routeTemplates,
  serveOpenApi,
} from '@almanac/shared';
import helmet from 'helmet';
import { PublicSurface } from '@almanac/identity';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import { type HttpLogger, type Options, pinoHttp } from 'pino-http';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppLogger } from './app-logger';
import { AppModule } from './app.module';

export interface CreateAppOptions {
  config?: AppConfig;
  clock?: Clock;
  /** Keep Nest's own logger quiet (tests). */
  quiet?: boolean;
  /** Let Nest close the app on SIGTERM/SIGINT (default). main.ts drains HTTP itself first and turns this off. */
  shutdownHooks?: boolean;
  /** More modules to compose in (see AppModuleOptions.extraModules). */
  extraModules?: Array<Type<unknown> | DynamicModule>;
  /** Where the JSON log lines go (default: stdout). Tests read them from here. */
  logDestination?: DestinationStream;
}

export interface AlmanacApp {
  app: INestApplication;
  document: OpenAPIObject;
}

/**
 * The access log: one JSON line per request (request id, method, url, status, response time), and the
 * pino instance Nest's own logs go through. Mounted as a plain Express middleware rather than through
 * nestjs-pino's LoggerModule, whose per-request AsyncLocalStorage context (promise hooks on every
 * promise once enabled) and route-matched Nest middleware cost ~30–60 µs of CPU per request; nothing
 * read that context (the error filter logs the request id itself). Runs on the raw request right
 * after the request id (see AlmanacExpressAdapter), so every request that reaches Express is logged.
 */
function accessLogMiddleware(config: AppConfig, destination?: DestinationStream): HttpLogger<IncomingMessage> {
  const options: Options<IncomingMessage> = {
    level: config.logLevel,
    genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
    quietReqLogger: true,
    // Whitelisting serializers: no header (Authorization, Cookie) or body ever reaches the log.
    serializers: {
      // The URL without the secrets some carry: calendar feed and public booking tokens, `key` and `token` parameters.
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactedUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // Every `{ err }` logged through this logger (Nest's logs included): never SQL parameters.
      err: loggableError,
    },
    autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
  };
  return destination ? pinoHttp(options, destination) : pinoHttp(options);
}

/**
 * What every request goes through on the raw Node request before anything else: its id, its
 * metrics (with METRICS_TOKEN), the access log, the security headers. The bench's floor server runs
 * these same steps.
 */
export function frontDoorOf(
  config: AppConfig,
  metricsStep?: FrontDoorStep,
  logDestination?: DestinationStream,
): { steps: FrontDoorStep[]; accessLog: HttpLogger<IncomingMessage> } {
  const accessLog = accessLogMiddleware(config, logDestination);
  const steps: FrontDoorStep[] = [
    requestIdStep(),
    ...(metricsStep ? [metricsStep] : []),
    (req: IncomingMessage, res: ServerResponse) => accessLog(req, res),
    precomputedHeadersStep(
      helmet({
        contentSecurityPolicy: {
          directives: {
            'script-src': ["'self'"],
            'img-src': ["'self'", 'data:', 'https://validator.swagger.io'],
            'upgrade-insecure-requests': null,
          },
        },
        crossOriginEmbedderPolicy: false,
      }),
    ),
  ];
  return { steps, accessLog };
}

/** Builds the fully configured application; shared by main.ts, the CLI, the e2e tests and the bench's floor. */
export async function createApp(options: CreateAppOptions = {}): Promise<AlmanacApp> {
  const config = options.config ?? AppConfig.fromEnv();
  const metrics = new Metrics(config.metricsToken !== undefined);
  // Requests are labelled with the route template Express matched; the router exists once the app does.
  let router: () => unknown = () => undefined;
  const metricsStep = metrics.enabled ? metrics.frontDoorStep(routeTemplates(() => router())) : undefined;
  const { steps: frontDoor, accessLog } = frontDoorOf(config, metricsStep, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register({ config, clock: options.clock, metrics, extraModules: options.extraModules }),
    new AlmanacExpressAdapter(frontDoor, (fields, message) => accessLog.logger.warn(fields, message), {
      maxConnectionsPerClient: config.maxConnectionsPerClient,
      trustedProxies: config.trustedProxies,
      headersTimeoutMs: config.httpHeadersTimeoutMs,
      requestTimeoutMs: config.httpRequestTimeoutMs,
    }),
    {
      bodyParser: false,
      bufferLogs: true,
      logger: options.quiet ? false : undefined,
    },
  );
  // Nest's own logs as JSON through the same pino instance (nestjs-pino's Logger, used without its module).
  if (!options.quiet) app.useLogger(new AppLogger(accessLog.logger));
  router = () => (app.getHttpAdapter().getInstance() as { router?: unknown }).router;
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('etag', false);
  // Before the body parser: CORS and the per-client limit of /public/v1 hold for its every answer,
  // and a client over its limit is refused before its body is read.
  app.use(app.get(PublicSurface).middleware);
  app.use(jsonBodyMiddleware());
  app.useGlobalPipes(createValidationPipe());
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  const document = buildOpenApiDocument(app, config.appUrl);
  serveOpenApi(app, document);
  await app.init();
  return { app, document };
}
