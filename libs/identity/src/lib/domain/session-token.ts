import { randomBytes } from 'node:crypto';
import { secretHash } from '@almanac/shared/domain';

/** 32 random bytes, base64url: what the `almanac_session` cookie carries. */
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this hash is stored; the token has 256 bits of entropy, so a fast hash is enough. */
export function hashSessionToken(token: string): string {
  return secretHash(token);
}
