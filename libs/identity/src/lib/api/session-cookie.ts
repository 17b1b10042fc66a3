import { SESSION_COOKIE } from '@almanac/shared';
import type { Request } from 'express';
import { SESSION_ABSOLUTE_MS } from '../domain/admin-session';

/** The `almanac_session` value from the Cookie header, if any (no cookie-parser needed for one cookie). */
export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function attributes(appUrl: string): string {
  const secure = new URL(appUrl).protocol === 'http:' ? '' : '; Secure';
  return `Path=/; HttpOnly; SameSite=Strict${secure}`;
}

export function sessionCookie(token: string, appUrl: string): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${SESSION_ABSOLUTE_MS / 1000}; ${attributes(appUrl)}`;
}

export function clearedSessionCookie(appUrl: string): string {
  return `${SESSION_COOKIE}=; Max-Age=0; ${attributes(appUrl)}`;
}
