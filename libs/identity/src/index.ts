export { IdentityModule } from './lib/identity.module';
export { IdentityService, CreatedApiKey } from './lib/application/identity.service';
export { ApiKeyAuthenticator } from './lib/application/api-key-authenticator';
export { ApiKeyGuard, RequireScope, RequestWithPrincipal } from './lib/api/api-key.guard';
export { V1Controller, Principal } from './lib/api/decorators';
export { ApiPrincipal } from './lib/domain/principal';
export { SCOPES, Scope } from './lib/domain/scopes';
export { IdentityInit1763700000100 } from './lib/infrastructure/migrations/1763700000100-identity-init';

import { IdentityInit1763700000100 } from './lib/infrastructure/migrations/1763700000100-identity-init';
export const identityMigrations = [IdentityInit1763700000100];
