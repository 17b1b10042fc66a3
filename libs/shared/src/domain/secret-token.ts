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
