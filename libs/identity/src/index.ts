export { IdentityModule } from './lib/identity.module';
export { IdentityService, CreatedApiKey, ApiKeyRecord } from './lib/application/identity.service';
export { ApiKeyAuthenticator } from './lib/application/api-key-authenticator';
export { AdminSessionService } from './lib/application/admin-session.service';
export { DemoSeeder, DemoOutput, DEMO_ADMIN_EMAIL } from './lib/application/demo-seed';
export { ApiKeyGuard, RequireScope, RequestWithPrincipal } from './lib/api/api-key.guard';
export { AdminSessionGuard, SessionGuard, RequestWithSession } from './lib/api/admin-session.guard';
export { V1Controller, AdminController, Principal, AdminSession } from './lib/api/decorators';
export { ApiPrincipal } from './lib/domain/principal';
export { AdminSessionInfo, UserRole } from './lib/domain/admin-session';
export { SCOPES, Scope } from './lib/domain/scopes';
export { requestFingerprint } from './lib/domain/request-fingerprint';
export { IdentityInit1763700000100 } from './lib/infrastructure/migrations/1763700000100-identity-init';
export { IdentitySessions1763700000200 } from './lib/infrastructure/migrations/1763700000200-identity-sessions';

import { IdentityInit1763700000100 } from './lib/infrastructure/migrations/1763700000100-identity-init';
import { IdentitySessions1763700000200 } from './lib/infrastructure/migrations/1763700000200-identity-sessions';
export const identityMigrations = [IdentityInit1763700000100, IdentitySessions1763700000200];
