/*
 * How much of the dispatchers' attention one endpoint and one organization may hold, so that none
 * delays the others (an endpoint that hangs holds an attempt for the whole timeout). The caps count
 * attempts in flight on every instance together: a claim counts the deliveries whose lease has not
 * ended, in the database.
 */

/** Attempts one instance runs at once (its pool; refilled as each attempt ends). */
export const ATTEMPTS_PER_INSTANCE = 128;
/** Attempts in flight to one endpoint, across instances. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 32;
/** … and to an endpoint whose last attempts timed out: one probe at a time. */
export const MAX_IN_FLIGHT_WHILE_TIMING_OUT = 1;
/** Attempts in flight for one organization, across instances and all its endpoints. */
export const MAX_IN_FLIGHT_PER_ORGANIZATION = 64;

/** The first pause after a timeout; it doubles with every further one, up to the longest. */
const FIRST_PAUSE_MS = 10_000;
const LONGEST_PAUSE_MS = 10 * 60_000;

/**
 * Backing off an endpoint that keeps timing out. An endpoint counts its timeouts in a row (attempts
 * that got no answer within the time limit). After the n-th, nothing is sent to it for
 * 10 s × 2^(n−1) (at most 10 minutes), then one attempt at a time; its first answer of any kind (a 500
 * too) clears the count and the pause. Its deliveries wait meanwhile without spending attempts.
 *
 * Given the count when the attempt that timed out was claimed: attempts that ran side by side
 * (claimed from the same count) make one timeout together, not eight, and the pause they start ends
 * `pauseMs` after the attempt ended.
 */
export function afterTimeout(countAtClaim: number): { count: number; pauseMs: number } {
  const count = countAtClaim + 1;
  return { count, pauseMs: Math.min(FIRST_PAUSE_MS * 2 ** (count - 1), LONGEST_PAUSE_MS) };
}
