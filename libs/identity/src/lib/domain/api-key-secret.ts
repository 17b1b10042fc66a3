import { secretHash, secretToken } from '@almanac/shared/domain';
import type { ApiKeyKind } from './api-key-kind';

/** A secret key (`alm_…`) or a publishable one (`alm_pub_…`). */
export const API_KEY_PATTERN = /^alm_(?:pub_)?[0-9A-Za-z]{32}$/;
export const PUBLISHABLE_KEY_PATTERN = /^alm_pub_[0-9A-Za-z]{32}$/;
export const API_KEY_PREFIX_LENGTH = 12;

/** `alm_` (`alm_pub_` for a publishable key) and 32 base62 characters from a CSPRNG (about 190 bits). */
export function generateApiKey(kind: ApiKeyKind = 'secret'): string {
  const body = secretToken(32);
  return kind === 'publishable' ? `alm_pub_${body}` : `alm_${body}`;
}

/** Only this hash is stored. A fast hash is right here: the key has 190 bits of entropy. */
export function hashApiKey(key: string): string {
  return secretHash(key);
}
