import { createHash } from 'node:crypto';

/** Identifies "the same request" for Idempotency-Key: method, path with query, and the parsed JSON body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(method.toUpperCase())
    .update('\n')
    .update(url)
    .update('\n')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long the first response is kept for replays. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An attempt still "in progress" after this long is presumed dead (its process crashed) and may be retried. */
export const IDEMPOTENCY_STALE_MS = 5 * 60 * 1000;
