import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  AppConfig,
  buildOpenApiDocument,
  Clock,
  createValidationPipe,
  jsonBodyMiddleware,
  nulByteMiddleware,
  precomputedHeadersMiddleware,
  requestIdMiddleware,
  serveOpenApi,
} from '@almanac/shared';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import type { OpenAPIObject } from '@nestjs/swagger';
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

/** Builds the fully configured application; shared by main.ts, the CLI and the e2e tests. */
export async function createApp(options: CreateAppOptions = {}): Promise<AlmanacApp> {
  const config = options.config ?? AppConfig.fromEnv();
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register({ config, clock: options.clock, extraModules: options.extraModules }),
    {
      bodyParser: false,
      bufferLogs: true,
      logger: options.quiet ? false : undefined,
    },
  );
  if (!options.quiet) app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('etag', false);
  app.use(requestIdMiddleware());
  app.use(
    precomputedHeadersMiddleware(
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
  );
  app.use(jsonBodyMiddleware());
  app.use(nulByteMiddleware());
  app.useGlobalPipes(createValidationPipe());
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  const document = buildOpenApiDocument(app, config.appUrl);
  serveOpenApi(app, document);
  await app.init();
  return { app, document };
}
