/** One failed (or not yet verified) sign-in attempt, counted per e-mail and per client for LOGIN_WINDOW_MS. */
export interface LoginFailure {
  readonly id: string;
  readonly emailKey: string;
  readonly clientKey: string;
  readonly attemptedAt: Date;
}

/** The throttle's key of a client (an IPv4 address or an IPv6 /64, see TrustedProxies.clientOf). */
export function loginClientKey(client: string): string {
  return `client:${client}`;
}
