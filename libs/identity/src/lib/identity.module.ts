import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyGuard } from './api/api-key.guard';
import { ApiKeyAuthenticator } from './application/api-key-authenticator';
import { IdentityService } from './application/identity.service';
import { ApiKeyOrmEntity, OrganizationOrmEntity, UserOrmEntity } from './infrastructure/identity.orm-entities';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationOrmEntity, UserOrmEntity, ApiKeyOrmEntity])],
  providers: [ApiKeyAuthenticator, ApiKeyGuard, IdentityService],
  exports: [ApiKeyAuthenticator, ApiKeyGuard, IdentityService],
})
export class IdentityModule {}
