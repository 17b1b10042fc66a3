import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { ForbiddenError, HttpProblem, UnauthorizedError } from '@almanac/shared';
import type { Request, Response } from 'express';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { ApiRateLimiter } from '../application/api-rate-limiter';
import { ApiPrincipal } from '../domain/principal';
import { Scope } from '../domain/scopes';

export const REQUIRED_SCOPE = 'almanac:required-scope';

export type RequestWithPrincipal = Request & { principal?: ApiPrincipal; rateCounted?: boolean };

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
    const principal = req.principal ?? (await this.authenticator.authenticate(req.headers.authorization));
    if (!principal) throw new UnauthorizedError('A valid API key is required.');
    req.principal = principal;
    if (!req.rateCounted) {
      req.rateCounted = true;
      this.countRequest(principal, http.getResponse<Response>());
    }
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    if (scope && !principal.scopes.includes(scope)) {
      throw new ForbiddenError(`This API key lacks the ${scope} scope.`);
    }
    return true;
  }

  private countRequest(principal: ApiPrincipal, res: Response): void {
    const decision = this.rateLimiter.hit(principal.apiKeyId);
    if (!decision) return;
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new HttpProblem({
        status: 429,
        code: 'rate_limited',
        detail: `This API key made more than ${decision.limit} requests in a minute.`,
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
  }
}

/**
 * The scope an operation needs; a key without it gets 403 `forbidden`. The scope is also written
 * into the OpenAPI operation as `x-required-scope`.
 */
export const RequireScope = (scope: Scope) =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension('x-required-scope', scope));
