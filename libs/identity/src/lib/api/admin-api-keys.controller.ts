import { Body, Delete, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  AuditSource,
  Clock,
  DomainError,
  ListResponse,
  PageQuery,
  pageOf,
  parseDateOrDateTime,
  resolvePage,
  UuidParam,
} from '@almanac/shared';
import type { Response } from 'express';
import { IdentityService } from '../application/identity.service';
import { AdminSessionInfo } from '../domain/admin-session';
import { Audited } from './audit-source';
import { AdminController, AdminSession, assertOwnOrganization, OrganizationIdParam } from './decorators';
import { AdminApiKeyResponse, CreateAdminApiKeyDto, CreatedAdminApiKeyResponse, toAdminApiKey } from './dto/admin-api-key.dto';



/** The organization's API keys, for its admins (session cookie): list, create, revoke. */
@AdminController('organizations/:organizationId/api-keys', 'admin-api-keys')
export class AdminApiKeysController {
  constructor(
    private readonly identity: IdentityService,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({ summary: "List the organization's API keys", description: 'Newest first; revoked keys stay listed. Never the key or its hash.' })
  @ApiListResponse(AdminApiKeyResponse)
  @ApiProblems(400)
  async list(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Query() query: PageQuery,
  ): Promise<ListResponse<AdminApiKeyResponse>> {
    assertOwnOrganization(admin, organizationId);
    const page = resolvePage(query);
    const { items, total } = await this.identity.listApiKeys(organizationId, page);
    return pageOf(items.map(toAdminApiKey), total, page);
  }

  @Post()
  @ApiOperation({
    summary: 'Create an API key',
    description:
      'The key is in this answer only. A secret key without scopes has all of them; a publishable key (`kind: "publishable"`) ' +
      'has exactly posts:read and events:read and may list browser origins and a site URL (see `kind`).',
  })
  @ApiDataResponse(CreatedAdminApiKeyResponse, 201, 'The key, with its secret (shown once)')
  @ApiProblems(400, 415)
  async create(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Body() body: CreateAdminApiKeyDto,
    @Audited() source: AuditSource,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: CreatedAdminApiKeyResponse }> {
    assertOwnOrganization(admin, organizationId);
    const expiresAt = body.expires_at ? parseDateOrDateTime(body.expires_at)!.instant : null;
    if (expiresAt && expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new DomainError('validation_failed', 'expires_at must be in the future', [{ field: 'expires_at', message: 'must be in the future' }]);
    }
    const created = await this.identity.createApiKey({
      organizationId,
      name: body.name,
      scopes: body.scopes,
      userId: admin.userId,
      expiresAt,
      kind: body.kind,
      allowedOrigins: body.allowed_origins,
      siteUrl: body.site_url,
    }, source);
    res.setHeader('Location', `/api/organizations/${organizationId}/api-keys/${created.id}`);
    return { data: { ...toAdminApiKey(created.record), key: created.key } };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One API key of the organization', description: 'Never the key or its hash.' })
  @ApiDataResponse(AdminApiKeyResponse)
  async get(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', UuidParam('API key')) id: string,
  ): Promise<{ data: AdminApiKeyResponse }> {
    assertOwnOrganization(admin, organizationId);
    return { data: toAdminApiKey(await this.identity.getApiKey(organizationId, id)) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key', description: 'The key stops working at once on this instance. Revoking twice keeps the first revoked_at.' })
  @ApiDataResponse(AdminApiKeyResponse, 200, 'The key, with revoked_at')
  @ApiProblems(404)
  async revoke(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', UuidParam('API key')) id: string,
    @Audited() source: AuditSource,
  ): Promise<{ data: AdminApiKeyResponse }> {
    assertOwnOrganization(admin, organizationId);
    return { data: toAdminApiKey(await this.identity.revokeOrganizationApiKey(organizationId, id, source)) };
  }
}
