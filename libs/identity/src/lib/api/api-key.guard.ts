import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { ForbiddenError, NotFoundError, rateLimitedProblem, rateLimitHeaders, UnauthorizedError } from '@almanac/shared';
import type { Request, Response } from 'express';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { allowBrowserOrigin } from './cors';
import { ApiRateLimiter } from '../application/api-rate-limiter';
import { RATE_LIMIT_POLICY, RATE_LIMIT_WINDOW_SECONDS } from '../domain/fixed-window-rate-limiter';
import { ApiPrincipal } from '../domain/principal';
import { Scope } from '../domain/scopes';

export const REQUIRED_SCOPE = 'almanac:required-scope';
const OPEN_TO_PUBLISHABLE = 'almanac:open-to-publishable-keys';
const RATE_LIMIT_COST = 'almanac:rate-limit-cost';

/** What a request costs against its key's rate limit, from its (raw, not yet validated) query. */
export type RateLimitCostOf = (query: Record<string, unknown>, now: Date) => number;

export type RequestWithPrincipal = Request & { principal?: ApiPrincipal };

/**
 * Authenticates `Authorization: Bearer alm_…` (or `alm_pub_…`), counts the request against the key's
 * rate limit (RateLimit-* headers on every answer, 429 past the limit) and checks the operation's
 * scope. A publishable key also needs a route marked `@OpenToPublishableKeys()` (any other is 403),
 * and a request it makes from one of its origins gets CORS headers, on errors too.
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
    if (!known) {
      const res = http.getResponse<Response>();
      const origin = req.headers.origin;
      if (principal.kind === 'publishable' && origin !== undefined && principal.allowedOrigins.includes(origin)) allowBrowserOrigin(res, origin);
      const cost = this.reflector.get<RateLimitCostOf | undefined>(RATE_LIMIT_COST, context.getHandler());
      this.countRequest(principal, res, cost && ((now) => cost(req.query as Record<string, unknown>, now)));
    }
    if (principal.kind === 'publishable' && !this.reflector.getAllAndOverride<boolean | undefined>(OPEN_TO_PUBLISHABLE, [context.getHandler(), context.getClass()])) {
      throw new ForbiddenError('A publishable key may only read published posts and events.');
    }
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    if (scope && !principal.scopes.includes(scope)) {
      throw new ForbiddenError(`This API key lacks the ${scope} scope.`);
    }
    return true;
  }

  private countRequest(principal: ApiPrincipal, res: Response, cost?: (now: Date) => number): void {
    const decision = this.rateLimiter.hit(principal.apiKeyId, cost);
    if (!decision) return;
    // The three fields of the earlier draft, and the policy and its state as the current draft
    // (draft-ietf-httpapi-ratelimit-headers-08 and later) spells them.
    for (const [name, value] of Object.entries(rateLimitHeaders(RATE_LIMIT_POLICY, decision, RATE_LIMIT_WINDOW_SECONDS))) res.setHeader(name, value);
    if (!decision.allowed) {
      throw rateLimitedProblem(
        `This API key used its ${decision.limit} units of this minute (${decision.remaining} left; a request costs 1, a costly read more).`,
        decision.resetSeconds,
      );
    }
  }
}

/**
 * The scope an operation needs; a key without it gets 403 `forbidden`. The scope is also written
 * into the OpenAPI operation as `x-required-scope`.
 */
export const RequireScope = (scope: Scope) =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension('x-required-scope', scope));

/**
 * A read a publishable key may make. The handler shows such a key only what is published (see
 * `readsPublishedOnly`); every route without this mark answers a publishable key 403. Written into
 * the OpenAPI operation as `x-publishable-key: true`.
 */
export const OpenToPublishableKeys = () =>
  applyDecorators(SetMetadata(OPEN_TO_PUBLISHABLE, true), ApiExtension('x-publishable-key', true));

/** Whether the caller is a publishable key, which sees published records only (the others answer 404). */
export function readsPublishedOnly(principal: Pick<ApiPrincipal, 'kind'>): boolean {
  return principal.kind === 'publishable';
}

/**
 * The status filter of a list as the caller may apply it: a secret key's as asked; a publishable
 * key's is always the published one, and a request for any other status (`status=draft`) matches
 * nothing, answered `null` (an empty page without a query).
 */
export function visibleStatusFilter<S extends string>(principal: Pick<ApiPrincipal, 'kind'>, requested: S | undefined, published: S): S | undefined | null {
  if (!readsPublishedOnly(principal)) return requested;
  return requested === undefined || requested === published ? published : null;
}

/** A record a publishable key may not see (not published) is, to it, a record that does not exist. */
export function assertVisible(principal: Pick<ApiPrincipal, 'kind'>, status: string, published: string, what: string): void {
  if (readsPublishedOnly(principal) && status !== published) throw new NotFoundError(what);
}

/**
 * An operation that costs more than one unit of its key's rate limit (a read whose work grows with
 * its query). The cost is computed from the query before it is validated (an invalid one is refused
 * with 400 after paying at most its cost), and the rule is written into the OpenAPI operation as
 * `x-rate-limit-cost` and said in its description.
 */
export const RateLimitCost = (cost: RateLimitCostOf, rule: string) =>
  applyDecorators(SetMetadata(RATE_LIMIT_COST, cost), ApiExtension('x-rate-limit-cost', rule));
