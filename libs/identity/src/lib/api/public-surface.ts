import { Injectable } from '@nestjs/common';
import { AppConfig, isPublicApiPath, rateLimitedProblem } from '@almanac/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PublicRateLimiter } from '../application/public-rate-limiter';
import { allowAnyOrigin, allowPublicPreflight } from './cors';

/**
 * What every `/public/v1` request goes through before its body is read or a route is chosen, so that
 * it holds for every answer, errors and unknown paths included: CORS for any origin; a preflight
 * (`OPTIONS`) answered at once with 204, uncounted; every other request counted against its client's
 * budget (429 `rate_limited` with Retry-After past it). Mounted by the app ahead of the body parser.
 */
@Injectable()
export class PublicSurface {
  constructor(
    private readonly limiter: PublicRateLimiter,
    private readonly config: AppConfig,
  ) {}

  readonly middleware: RequestHandler = (req: Request, res: Response, next: NextFunction): void => {
    if (!isPublicApiPath(req.path)) return next();
    allowAnyOrigin(res);
    if (req.method === 'OPTIONS') {
      allowPublicPreflight(res);
      res.status(204).end();
      return;
    }
    // The client as every per-client limit counts it: an IPv4 address or an IPv6 /64, behind a
    // trusted proxy the address it forwards.
    this.limiter.hit(this.config.trustedProxies.clientOf(req)).then(
      (retryAfter) =>
        next(retryAfter === null ? undefined : rateLimitedProblem(`This client made more than ${this.limiter.perMinute} requests to /public/v1 in 60 seconds.`, retryAfter)),
      next,
    );
  };
}
