/** This context's migrations, one line each (TypeORM runs every context's in the order of their timestamps). */
export { IdentityInit1763700000100 } from './1763700000100-identity-init';
export { IdentitySessions1763700000200 } from './1763700000200-identity-sessions';
export { LoginFailuresByClient1764010000000 } from './1764010000000-login-failures-by-client';
export { IdentityDistributionKeys1764070000500 } from './1764070000500-distribution-keys';
export { UserDirectory1764080000900 } from './1764080000900-user-directory';
export { PublishableKeys1764230000000 } from './1764230000000-publishable-keys';
export { LoginKnownClients1764300000700 } from './1764300000700-login-known-clients';
export { PublicRateLimits1764320000000 } from './1764320000000-public-rate-limits';
export { LoginAttemptFunction1764350000300 } from './1764350000300-login-attempt-function';
