import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { ForbiddenError, rateLimitedProblem, rateLimitHeaders, UnauthorizedError } from '@almanac/shared';
import type { Request, Response } from 'express';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { ApiRateLimiter } from '../application/api-rate-limiter';
import { RATE_LIMIT_POLICY, RATE_LIMIT_WINDOW_SECONDS } from '../domain/fixed-window-rate-limiter';
import { ApiPrincipal } from '../domain/principal';
import { Scope } from '../domain/scopes';

export const REQUIRED_SCOPE = 'almanac:required-scope';

export type RequestWithPrincipal = Request & { principal?: ApiPrincipal };

/**
 * Authenticates `Authorization: Bearer alm_…`, counts the request against the key's rate limit
 * (RateLimit-* headers on every answer, 429 past the limit) and checks the operation's scope.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly rateLimiter: ApiRateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithPrincipal>();
    // Set only here, so a principal already on the request means this guard ran and counted it.
    const known = req.principal;
    const principal = known ?? (await this.authenticator.authenticate(req.headers.authorization));
    if (!principal) throw new UnauthorizedError('A valid API key is required.');
    req.principal = principal;
    if (!known) this.countRequest(principal, http.getResponse<Response>());
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    if (scope && !principal.scopes.includes(scope)) {
      throw new ForbiddenError(`This API key lacks the ${scope} scope.`);
    }
    return true;
  }

  private countRequest(principal: ApiPrincipal, res: Response): void {
    const decision = this.rateLimiter.hit(principal.apiKeyId);
    if (!decision) return;
    // The three fields of the earlier draft, and the policy and its state as the current draft
    // (draft-ietf-httpapi-ratelimit-headers-08 and later) spells them.
    for (const [name, value] of Object.entries(rateLimitHeaders(RATE_LIMIT_POLICY, decision, RATE_LIMIT_WINDOW_SECONDS))) res.setHeader(name, value);
    if (!decision.allowed) {
      throw rateLimitedProblem(`This API key made more than ${decision.limit} requests in a minute.`, decision.resetSeconds);
    }
  }
}

/**
 * The scope an operation needs; a key without it gets 403 `forbidden`. The scope is also written
 * into the OpenAPI operation as `x-required-scope`.
 */
export const RequireScope = (scope: Scope) =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension('x-required-scope', scope));
