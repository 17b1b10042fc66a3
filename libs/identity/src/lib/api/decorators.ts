import { applyDecorators, Controller, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiProblems, BEARER_SCHEME } from '@almanac/shared';
import { ApiPrincipal } from '../domain/principal';
import { ApiKeyGuard, RequestWithPrincipal } from './api-key.guard';

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

/** The authenticated API key's organization, user and scopes. */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): ApiPrincipal => {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('Principal used on a route without ApiKeyGuard');
  return principal;
});
