import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiDataResponse } from '@almanac/shared';
import { IdentityService } from '../application/identity.service';
import { ApiPrincipal } from '../domain/principal';
import { OpenToPublishableKeys } from './api-key.guard';
import { Principal, V1Controller } from './decorators';
import { ApiKeyResponse, toApiKeyResponse } from './dto/api-key.response';

@V1Controller('api-keys', 'api-keys')
export class ApiKeysController {
  constructor(private readonly identity: IdentityService) {}

  @Get('current')
  @OpenToPublishableKeys()
  @ApiOperation({
    summary: 'The API key making this request',
    description: 'Needs no scope, and a publishable key may ask it too: a quick way to check that a key works and what it may do.',
  })
  @ApiDataResponse(ApiKeyResponse)
  async current(@Principal() principal: ApiPrincipal): Promise<{ data: ApiKeyResponse }> {
    return { data: toApiKeyResponse(await this.identity.getApiKey(principal.organizationId, principal.apiKeyId)) };
  }
}
