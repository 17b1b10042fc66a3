import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiProblems, AppConfig, AuditSource, rateLimitedProblem, SESSION_SCHEME, UnauthorizedError } from '@almanac/shared';
import type { Request, Response } from 'express';
import { AdminSessionService, LoginThrottledError } from '../application/admin-session.service';
import { AdminSessionInfo } from '../domain/admin-session';
import { assertSameOrigin, SessionGuard, sessionRequired } from './admin-session.guard';
import { Audited } from './audit-source';
import { AdminSession } from './decorators';
import { LoginDto } from './dto/login.dto';
import { SessionResponse, toSessionResponse } from './dto/session.response';
import { clearedSessionCookie, readSessionCookie, sessionCookie } from './session-cookie';

/** Admin sign-in for the endpoints under `/api` that take a session (the calendar import). */
@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly sessions: AdminSessionService,
    private readonly config: AppConfig,
  ) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in as an admin',
    description:
      'Sets the `almanac_session` cookie (HttpOnly, SameSite=Strict, Path=/, Secure unless APP_URL is http). ' +
      'Unknown e-mail, wrong password and non-admin accounts get the same 401. More than 10 failed attempts ' +
      'for one e-mail within 15 minutes: 429 with Retry-After. More than `LOGIN_MAX_FAILURES_PER_CLIENT` (30) from one ' +
      'client (its address; behind a proxy listed in `TRUSTED_PROXIES`, the address the proxy names in X-Forwarded-For) ' +
      'within 15 minutes: 429 before any password is hashed, except for an e-mail that signed in from that client in the ' +
      'last 30 days, whose right password is still accepted (a wrong one gets the same 429).',
  })
  @ApiDataResponse(SessionResponse, 200, 'Signed in; the session cookie is set')
  @ApiProblems(400, 401, 403, 415, 429)
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ data: SessionResponse }> {
    assertSameOrigin(req, this.config);
    try {
      const { token, user } = await this.sessions.login(body.email, body.password, this.config.trustedProxies.clientOf(req), (req as { id?: string }).id ?? null);
      res.setHeader('Set-Cookie', sessionCookie(token, this.config.appUrl));
      res.setHeader('Cache-Control', 'no-store');
      return { data: toSessionResponse(user) };
    } catch (error) {
      if (error instanceof LoginThrottledError) throw rateLimitedProblem(error.message, error.retryAfterSeconds);
      if (error instanceof UnauthorizedError) throw sessionRequired(error.message);
      throw error;
    }
  }

  @Get('session')
  @UseGuards(SessionGuard)
  @ApiCookieAuth(SESSION_SCHEME)
  @ApiOperation({ summary: 'The signed-in user', description: 'Each use keeps the session alive (12 h idle limit, 7 days absolute).' })
  @ApiDataResponse(SessionResponse, 200, 'The session is valid')
  @ApiProblems(401, 403)
  session(@AdminSession() session: AdminSessionInfo, @Res({ passthrough: true }) res: Response): { data: SessionResponse } {
    res.setHeader('Cache-Control', 'no-store');
    return { data: toSessionResponse(session) };
  }

  @Post('logout')
  @HttpCode(204)
  @UseGuards(SessionGuard)
  @ApiCookieAuth(SESSION_SCHEME)
  @ApiOperation({ summary: 'Sign out', description: 'Deletes the session server-side and clears the cookie.' })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiProblems(401, 403, 415)
  async logout(
    @Req() req: Request,
    @AdminSession() session: AdminSessionInfo,
    @Audited() source: AuditSource,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const token = readSessionCookie(req);
    if (token) await this.sessions.logout(token, session, source);
    res.setHeader('Set-Cookie', clearedSessionCookie(this.config.appUrl));
  }
}
