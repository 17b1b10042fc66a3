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
  requestIdStep,
  routeTemplates,
  serveOpenApi,
} from '@almanac/shared';
import helmet from 'helmet';
import { PublicSurface } from '@almanac/identity';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HttpLogger, pinoHttp } from 'pino-http';
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
}

export interface AlmanacApp {
  app: INestApplication;
  document: OpenAPIObject;
}

/** An absolute-form request target's scheme and authority (`GET http://host/path`), which Express routes like `/path`. */
const ORIGIN_FORM = '(?:[a-z][a-z0-9+.-]*://[^/?#]*)?';
/** The token after any `/public/v1/<collection>/` (a preview link's, and any later public route's), and a calendar feed's. */
const SECRET_SEGMENTS = [new RegExp(`^(${ORIGIN_FORM}/public/v1/[^/?#]+/)[^/?#]+`, 'i'), new RegExp(`^(${ORIGIN_FORM}/calendar/)[^/?#]+?(?=\\.ics(?:[/?#]|$)|[/?#]|$)`, 'i')];

/** Whether a query parameter's name, as the query parser decodes it, is `key` (the Atom feed's publishable key). */
function namesKey(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // Not decodable: the parser keeps it as sent, and so do we.
  }
  return /^key(?:\[|$)/i.test(name.trim());
}

/**
 * A request's address as the log may keep it: the secrets some addresses carry (a preview link's
 * token, or whatever token follows `/public/v1/<collection>/`, a calendar feed's token, the `key` of
 * the Atom feed) are replaced, so whoever reads the logs cannot open them. Every spelling that
 * reaches the same handler is covered: any case (routes ignore it), an absolute-form target, a
 * percent-encoded parameter name.
 */
export function redactSecretsInUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const pattern of SECRET_SEGMENTS) path = path.replace(pattern, '$1[redacted]');
  const query = queryAt === -1 ? '' : url.slice(queryAt).replace(/([?&#])([^=&#]*)=([^&#]*)/g, (pair, separator: string, name: string) => (namesKey(name) ? `${separator}${name}=[redacted]` : pair));
  return path + query;
}

/**
 * The access log: one JSON line per request (request id, method, url, status, response time), and the
 * pino instance Nest's own logs go through. Mounted as a plain Express middleware rather than through
 * nestjs-pino's LoggerModule, whose per-request AsyncLocalStorage context (promise hooks on every
 * promise once enabled) and route-matched Nest middleware cost ~30–60 µs of CPU per request; nothing
 * read that context (the error filter logs the request id itself). Runs on the raw request right
 * after the request id (see AlmanacExpressAdapter), so every request that reaches Express is logged.
 */
function accessLogMiddleware(config: AppConfig): HttpLogger<IncomingMessage> {
  return pinoHttp({
    level: config.logLevel,
    genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
    quietReqLogger: true,
    // Whitelisting serializers: no header (Authorization, Cookie) or body ever reaches the log.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactSecretsInUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // Every `{ err }` logged through this logger (Nest's logs included): never SQL parameters.
      err: loggableError,
    },
    autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
  });
}

/**
 * What every request goes through on the raw Node request before anything else: its id, its
 * metrics (with METRICS_TOKEN), the access log, the security headers. The bench's floor server runs
 * these same steps.
 */
export function frontDoorOf(config: AppConfig, metricsStep?: FrontDoorStep): { steps: FrontDoorStep[]; accessLog: HttpLogger<IncomingMessage> } {
  const accessLog = accessLogMiddleware(config);
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
  const { steps: frontDoor, accessLog } = frontDoorOf(config, metricsStep);
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
