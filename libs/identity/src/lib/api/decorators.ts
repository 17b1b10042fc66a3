import { applyDecorators, Controller, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import { ApiProblems, BEARER_SCHEME, SESSION_SCHEME } from '@almanac/shared';
import { AdminSessionInfo } from '../domain/admin-session';
import { ApiPrincipal } from '../domain/principal';
import { ApiKeyGuard, RequestWithPrincipal } from './api-key.guard';
import { AdminSessionGuard, RequestWithSession } from './admin-session.guard';

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
  );
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
    ApiProblems(401, 403),
  );
}

/** The authenticated API key's organization, user and scopes. */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): ApiPrincipal => {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('Principal used on a route without ApiKeyGuard');
  return principal;
});

/** The signed-in admin: `{ userId, organizationId, role, email, name }`. Use under `AdminController`. */
export const AdminSession = createParamDecorator((_data: unknown, context: ExecutionContext): AdminSessionInfo => {
  const session = context.switchToHttp().getRequest<RequestWithSession>().adminSession;
  if (!session) throw new Error('AdminSession used on a route without AdminSessionGuard');
  return session;
});
