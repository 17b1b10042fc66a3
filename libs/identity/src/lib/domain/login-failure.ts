/** One failed (or not yet verified) sign-in attempt, counted per e-mail and per client for LOGIN_WINDOW_MS. */
export interface LoginFailure {
  readonly id: string;
  readonly emailKey: string;
  readonly clientKey: string;
  readonly attemptedAt: Date;
}

/** The throttle's key of a client: its address as the socket reports it. */
export function loginClientKey(clientAddress: string): string {
  return `client:${clientAddress}`;
}
