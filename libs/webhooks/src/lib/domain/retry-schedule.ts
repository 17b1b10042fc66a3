/** Delivery attempts and their spacing (docs/contract/webhooks.md, "Retries"). */
export interface RetryPolicy {
  maxAttempts: number;
  baseSeconds: number;
}

/**
 * When the next attempt comes after the `failedAttempts`-th failure: base × 4^(n−1) seconds, ±10 %
 * (`jitter` in [0, 1) picks where in that band), or null when no attempt is left.
 */
export function nextAttemptAt(
  now: Date,
  failedAttempts: number,
  policy: RetryPolicy,
  jitter: number,
): Date | null {
  if (failedAttempts >= policy.maxAttempts) return null;
  const delayMs = policy.baseSeconds * 1000 * 4 ** (failedAttempts - 1) * (0.9 + 0.2 * jitter);
  return new Date(now.getTime() + Math.round(delayMs));
}

/** What one attempt's answer means for the delivery and its endpoint. */
export type AttemptVerdict = 'succeeded' | 'retry' | 'gone';

export function verdictOf(status: number | null): AttemptVerdict {
  if (status !== null && status >= 200 && status < 300) return 'succeeded';
  if (status === 410) return 'gone';
  return 'retry';
}
