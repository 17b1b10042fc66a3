import { Global, Module } from '@nestjs/common';
import { registerErrorCodes } from '@almanac/shared';
import { AdminSessionGuard, SessionGuard } from './api/admin-session.guard';
import { ApiKeyGuard } from './api/api-key.guard';
import { AdminApiKeysController } from './api/admin-api-keys.controller';
import { ApiKeysController } from './api/api-keys.controller';
import { AuthController } from './api/auth.controller';
import { CorsPreflightController } from './api/cors-preflight.controller';
import { PublicSurface } from './api/public-surface';
import { BrowserOrigins } from './application/browser-origins';
import { IdempotencyInterceptor } from './api/idempotency.interceptor';
import { AdminSessionService } from './application/admin-session.service';
import { ApiKeyAuthenticator } from './application/api-key-authenticator';
import { ApiRateLimiter } from './application/api-rate-limiter';
import { DemoOutput, DemoSeeder, StdoutDemoOutput } from './application/demo-seed';
import { IdentityService } from './application/identity.service';
import { PublicRateLimiter } from './application/public-rate-limiter';
import { IdempotencyStore } from './infrastructure/idempotency.store';
import { ApiKeyRepository } from './infrastructure/api-key.repository';
import { OrganizationRepository } from './infrastructure/organization.repository';
import { PublicRateLimitRepository } from './infrastructure/public-rate-limit.repository';
import { SessionRepository } from './infrastructure/session.repository';
import { UserRepository } from './infrastructure/user.repository';
import { StoredAnswerErasureRepository } from './infrastructure/stored-answer-erasure.repository';
import { IDENTITY_ERROR_CODES } from './domain/identity-errors';

/** This context's own error codes (the kernel's are in @almanac/shared). */
registerErrorCodes('identity', IDENTITY_ERROR_CODES);

/** What identity lends the other contexts: the guards and interceptor their controllers use, and what those need. */
const SHARED = [
  IdempotencyInterceptor,
  IdempotencyStore,
  ApiKeyAuthenticator,
  BrowserOrigins,
  ApiRateLimiter,
  ApiKeyGuard,
  AdminSessionService,
  SessionGuard,
  AdminSessionGuard,
  IdentityService,
  PublicSurface,
];

@Global()
@Module({
  controllers: [AuthController, ApiKeysController, AdminApiKeysController, CorsPreflightController],
  providers: [
    OrganizationRepository,
    UserRepository,
    ApiKeyRepository,
    SessionRepository,
    StoredAnswerErasureRepository,
    PublicRateLimitRepository,
    PublicRateLimiter,
    ...SHARED,
    { provide: DemoOutput, useClass: StdoutDemoOutput },
    DemoSeeder,
  ],
  exports: SHARED,
})
export class IdentityModule {}
