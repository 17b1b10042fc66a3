export { IdentityModule } from './lib/identity.module';
export { IdentityService, type PublishableReader } from './lib/application/identity.service';
export { RequireScope, RateLimitCost, OpenToPublishableKeys, readsPublishedOnly, visibleStatusFilter, assertVisible } from './lib/api/api-key.guard';
export { PublicSurface } from './lib/api/public-surface';
export { FixedWindowRateLimiter } from './lib/domain/fixed-window-rate-limiter';
export { V1Controller, AdminController, Principal, AdminSession, OrganizationIdParam, assertOwnOrganization } from './lib/api/decorators';
export { ApiPrincipal } from './lib/domain/principal';
export { AdminSessionInfo } from './lib/domain/admin-session';
export { requestFingerprint } from './lib/domain/request-fingerprint';
export { Audited, auditSourceOf } from './lib/api/audit-source';

import { IdentityInit1763700000100 } from './lib/infrastructure/migrations/1763700000100-identity-init';
import { IdentitySessions1763700000200 } from './lib/infrastructure/migrations/1763700000200-identity-sessions';
import { LoginFailuresByClient1764010000000 } from './lib/infrastructure/migrations/1764010000000-login-failures-by-client';
import { IdentityDistributionKeys1764070000500 } from './lib/infrastructure/migrations/1764070000500-distribution-keys';
import { UserDirectory1764080000900 } from './lib/infrastructure/migrations/1764080000900-user-directory';
import { PublishableKeys1764230000000 } from './lib/infrastructure/migrations/1764230000000-publishable-keys';
import { LoginKnownClients1764300000700 } from './lib/infrastructure/migrations/1764300000700-login-known-clients';
import { PublicRateLimits1764320000000 } from './lib/infrastructure/migrations/1764320000000-public-rate-limits';
export const identityMigrations = [
  IdentityInit1763700000100,
  IdentitySessions1763700000200,
  LoginFailuresByClient1764010000000,
  IdentityDistributionKeys1764070000500,
  UserDirectory1764080000900,
  PublishableKeys1764230000000,
  LoginKnownClients1764300000700,
  PublicRateLimits1764320000000,
];
export { declareScopes, declaredScopes, SCOPES, type Scope } from './lib/domain/scopes';
export { declareEventTypes, declaredEventTypes, eventTypeList, eventTypes, readScopeOf } from './lib/domain/event-types';
