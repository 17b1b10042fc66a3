import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const BEARER_SCHEME = 'bearer';
export const SESSION_SCHEME = 'session';
export const SESSION_COOKIE = 'almanac_session';

/** Builds the OpenAPI document from the app's controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication, appUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Almanac API')
    .setDescription(
      'Bookings, event types, events and blog behind one HTTP/JSON API. `/api/v1` takes a bearer API key; ' +
        'the admin endpoints under `/api` take the `almanac_session` cookie from `POST /api/auth/login`. ' +
        'Every error is an RFC 9457 problem (application/problem+json).',
    )
    .setVersion('1.0.0')
    .addServer(appUrl)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: alm_ followed by 32 characters' }, BEARER_SCHEME)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, SESSION_SCHEME)
    .build();
  return SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
}

export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'Almanac API',
  });
}
