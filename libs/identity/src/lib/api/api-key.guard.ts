import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError, UnauthorizedError } from '@almanac/shared';
import type { Request } from 'express';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { ApiPrincipal } from '../domain/principal';
import { Scope } from '../domain/scopes';

export const REQUIRED_SCOPE = 'almanac:required-scope';

export type RequestWithPrincipal = Request & { principal?: ApiPrincipal };

/** Authenticates `Authorization: Bearer alm_…` and checks the operation's scope. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const principal = req.principal ?? (await this.authenticator.authenticate(req.headers.authorization));
    if (!principal) throw new UnauthorizedError('A valid API key is required.');
    req.principal = principal;
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (scope && !principal.scopes.includes(scope)) {
      throw new ForbiddenError(`This API key lacks the ${scope} scope.`);
    }
    return true;
  }
}

/** The scope an operation needs; a key without it gets 403 `forbidden`. */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);
