import type { MigrationClass } from '@almanac/shared';
import * as migrations from './lib/infrastructure/migrations';

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
export { declareScopes, declaredScopes, SCOPES, type Scope } from './lib/domain/scopes';
export { declareEventTypes, declaredEventTypes, eventTypeList, eventTypes, readScopeOf } from './lib/domain/event-types';

/** This context's migrations; the app runs them with every other context's. */
export const identityMigrations: MigrationClass[] = Object.values(migrations);
