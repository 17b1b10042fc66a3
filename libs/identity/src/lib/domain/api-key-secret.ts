import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_PATTERN = /^alm_[0-9A-Za-z]{32}$/;
export const API_KEY_PREFIX_LENGTH = 12;

/** `alm_` and 32 base62 characters from a CSPRNG (about 190 bits). */
export function generateApiKey(): string {
  let body = '';
  for (let i = 0; i < 32; i++) body += BASE62[randomInt(62)];
  return `alm_${body}`;
}

/** Only this hash is stored. A fast hash is right here: the key has 190 bits of entropy. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
