import {
  applyDecorators,
  Controller,
  createParamDecorator,
  ExecutionContext,
  Param,
  RequestMethod,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiBearerAuth, ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import { ApiProblems, BEARER_SCHEME, ForbiddenError, SESSION_SCHEME, UuidParam } from '@almanac/shared';
import { AdminSessionInfo } from '../domain/admin-session';
import { ApiPrincipal } from '../domain/principal';
import { ApiKeyGuard, RequestWithPrincipal } from './api-key.guard';
import { AdminSessionGuard, RequestWithSession } from './admin-session.guard';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * A controller under `/api/v1/<path>`: bearer API key required (401), rate limited (429), and
 * documented as such. Combine with `@RequireScope` on each handler.
 */
export function V1Controller(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    Controller(`api/v1/${path}`),
    UseGuards(ApiKeyGuard),
    ApiBearerAuth(BEARER_SCHEME),
    ApiTags(tag),
    ApiProblems(401, 429),
    IdempotentPosts(),
  );
}

/**
 * `Idempotency-Key` support on every POST handler of the controller, and on nothing else: an
 * interceptor on GET routes would cost every read its chain (measured ~40 µs and garbage per request).
 * Method decorators run before class decorators, so the route metadata is already there.
 */
function IdempotentPosts(): ClassDecorator {
  return (target) => {
    const prototype = (target as unknown as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      if (!descriptor || typeof descriptor.value !== 'function' || name === 'constructor') continue;
      if (Reflect.getMetadata(METHOD_METADATA, descriptor.value) === RequestMethod.POST) {
        UseInterceptors(IdempotencyInterceptor)(prototype, name, descriptor);
      }
    }
  };
}

/**
 * An admin controller under `/api/<path>` (no version prefix): the `almanac_session` cookie of an
 * admin is required (401 without a valid session, 403 for a non-admin or a foreign Origin), bearer
 * keys are ignored, and the cookie security scheme is documented.
 */
export function AdminController(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    Controller(`api/${path}`),
    UseGuards(AdminSessionGuard),
    ApiCookieAuth(SESSION_SCHEME),
    ApiTags(tag),
    // Under /api/organizations/{organizationId}/…: an id that is not a UUID names nothing (404).
    ...(path.includes(':') ? [ApiProblems(401, 403, 404)] : [ApiProblems(401, 403)]),
  );
}

/** The authenticated API key's organization, user and scopes. */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): ApiPrincipal => {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('Principal used on a route without ApiKeyGuard');
  return principal;
});

/** The signed-in admin: `{ userId, organizationId, role, email, name }`. Use under `AdminController`. */
export const AdminSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AdminSessionInfo => {
    const session = context.switchToHttp().getRequest<RequestWithSession>().adminSession;
    if (!session) throw new Error('AdminSession used on a route without AdminSessionGuard');
    return session;
  },
);

/** The `{organizationId}` of an `/api/organizations/{organizationId}/…` route: a malformed id is 404, as an unknown one. */
export const OrganizationIdParam = (): ParameterDecorator => Param('organizationId', UuidParam('Organization'));

/**
 * The one rule of every `/api/organizations/{organizationId}/…` route: an admin manages their own
 * organization only; another organization's id is 403 `forbidden`.
 */
export function assertOwnOrganization(admin: Pick<AdminSessionInfo, 'organizationId'>, organizationId: string): void {
  if (admin.organizationId !== organizationId) throw new ForbiddenError('You may only manage your own organization.');
}
