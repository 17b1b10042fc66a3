import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppConfig, ForbiddenError, HttpProblem, isUuid, SESSION_COOKIE } from '@almanac/shared';
import type { Request, Response } from 'express';
import { AdminSessionService } from '../application/admin-session.service';
import { AdminSessionInfo } from '../domain/admin-session';
import { clearedSessionCookie, readSessionCookie } from './session-cookie';

export type RequestWithSession = Request & { adminSession?: AdminSessionInfo };

/** 401 for session routes: the challenge names the cookie rather than a bearer token. */
export function sessionRequired(detail = 'Sign in with POST /api/auth/login first.'): HttpProblem {
  return new HttpProblem({
    status: 401,
    code: 'unauthorized',
    detail,
    headers: { 'WWW-Authenticate': `Cookie realm="almanac", cookie-name="${SESSION_COOKIE}"` },
  });
}

/** A cookie-authenticated request from a page of another origin is refused (CSRF defence). */
export function assertSameOrigin(req: Request, config: AppConfig): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== config.appOrigin) {
    throw new HttpProblem({
      status: 403,
      code: 'csrf_rejected',
      detail: `Requests with a session must come from ${config.appOrigin}.`,
    });
  }
}

/**
 * Any valid session, whatever the user's role (sign-out and "who am I"). Bearer keys are ignored:
 * only the `almanac_session` cookie counts. Missing, unknown, idle or expired → 401; a foreign
 * `Origin` → 403 `csrf_rejected`.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    protected readonly sessions: AdminSessionService,
    protected readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context);
    return true;
  }

  protected async authenticate(context: ExecutionContext): Promise<AdminSessionInfo> {
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithSession>();
    if (req.adminSession) return req.adminSession;
    const token = readSessionCookie(req);
    if (!token) throw sessionRequired();
    assertSameOrigin(req, this.config);
    const session = await this.sessions.resolve(token);
    if (!session) {
      http.getResponse<Response>().setHeader('Set-Cookie', clearedSessionCookie(this.config.appUrl));
      throw sessionRequired('The session has ended; sign in again.');
    }
    req.adminSession = session;
    return session;
  }
}

/**
 * A valid session of an admin: the guard of every admin route (`@AdminController`). Non-admins: 403.
 * Under `/api/organizations/{organizationId}/…` another organization's id is 403 too, here, before
 * any body or query is read, so every such route answers it the same way (a malformed id is left to
 * the route's own 404).
 */
@Injectable()
export class AdminSessionGuard extends SessionGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const session = await this.authenticate(context);
    if (session.role !== 'admin') throw new ForbiddenError('Only administrators may do this.');
    const organizationId = context.switchToHttp().getRequest<Request>().params?.['organizationId'];
    if (typeof organizationId === 'string' && isUuid(organizationId) && organizationId !== session.organizationId) {
      throw new ForbiddenError('You may only manage your own organization.');
    }
    return true;
  }
}
