import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` base62 characters from the CSPRNG (32 of them carry about 190 bits). */
export function secretToken(length = 32): string {
  let token = '';
  for (let i = 0; i < length; i++) token += BASE62[randomInt(62)];
  return token;
}

/**
 * What is stored of a secret (an API key, a token in an address): its SHA-256 in hex. A fast hash is
 * right for secrets of this entropy, unlike passwords.
 */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The shape of a secret token in an address: `prefix` (literal), then `length` base62 characters. */
export function secretTokenPattern(prefix = '', length = 32): RegExp {
  return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9A-Za-z]{${length}}$`);
}

/**
 * What a secret token from an address opens, found with the same work whether it opens anything or
 * not: the token's SHA-256 first, then one lookup of that hash (`find`, which must be served by an
 * index on the stored hash). The secret itself is never compared in JavaScript, so no early exit of
 * a string comparison tells a guesser how much of a guess was right, and a miss costs what a hit
 * costs up to the lookup. A token not of `shape` opens nothing and costs no lookup, which tells the
 * caller only what it already knows: its token's shape. The caller answers a miss as any missing
 * record (404), never saying whether the token was malformed, unknown or expired.
 */
export async function findBySecretToken<T>(token: unknown, shape: RegExp, find: (hash: string) => Promise<T | null | undefined>): Promise<T | null> {
  if (typeof token !== 'string' || !shape.test(token)) return null;
  return (await find(secretHash(token))) ?? null;
}
