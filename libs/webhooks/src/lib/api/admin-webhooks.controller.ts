import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminController, AdminSession, AdminSessionInfo, assertOwnOrganization, Audited, OrganizationIdParam, SCOPES } from '@almanac/identity';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  AuditSource,
  Conditional,
  IfMatch,
  IfMatchHeader,
  ListResponse,
  PageQuery,
  pageOf,
  resolvePage,
  UuidParam,
} from '@almanac/shared';
import type { Response } from 'express';
import { WebhooksService } from '../application/webhooks.service';
import { MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION } from '../domain/webhook-errors';
import { CreateWebhookDto, DeliveryListQuery, UpdateWebhookDto } from './dto/webhook.dto';
import { DELIVERY_ORDER } from './webhook-docs';
import { CreatedWebhookResponse, DeliveryResponse, toDelivery, toWebhook, webhookBody, WebhookDeletion, WebhookResponse, WebhookSecretResponse } from './dto/webhook.response';

const HOOK = UuidParam('Webhook');
/** An organization's admin may read every resource, so may subscribe to every event type. */
const ADMIN_READS = SCOPES;


/**
 * The organization's webhooks for the admin console (session cookie): the same use cases as
 * `/api/v1/webhooks`, which takes bearer keys only.
 */
@AdminController('organizations/:organizationId/webhooks', 'admin-webhooks')
export class AdminWebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({ summary: "List the organization's webhook endpoints", description: 'Oldest first.' })
  @ApiListResponse(WebhookResponse)
  @ApiProblems(400)
  async list(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Query() query: PageQuery,
  ): Promise<ListResponse<WebhookResponse>> {
    assertOwnOrganization(admin, organizationId);
    const page = resolvePage(query);
    const { items, total } = await this.webhooks.list(organizationId, page);
    return pageOf(items.map(toWebhook), total, page);
  }

  @Post()
  @ApiOperation({
    summary: 'Subscribe an endpoint',
    description:
      'The signing secret is in this answer only. ' +
      `An organization has at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION} endpoints: 409 webhook_limit_reached. ` +
      'An admin may subscribe to every event type (an API key only to those its scopes read). ' +
      DELIVERY_ORDER,
  })
  @ApiDataResponse(CreatedWebhookResponse, 201, 'The endpoint, with its secret (shown once)')
  @ApiProblems(400, 409, 413, 415)
  async create(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Body() body: CreateWebhookDto,
    @Audited() source: AuditSource,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: CreatedWebhookResponse }> {
    assertOwnOrganization(admin, organizationId);
    const created = await this.webhooks.create(organizationId, body, ADMIN_READS, source);
    res.setHeader('Location', `/api/organizations/${organizationId}/webhooks/${created.id}`);
    return { data: { ...toWebhook(created), secret: created.secret } };
  }

  @Get(':id')
  @Conditional()
  @ApiOperation({ summary: 'One webhook endpoint', description: 'As GET /api/v1/webhooks/{id}: never the secret.' })
  @ApiDataResponse(WebhookResponse)
  async get(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', HOOK) id: string,
  ): Promise<{ data: WebhookResponse }> {
    assertOwnOrganization(admin, organizationId);
    return webhookBody(await this.webhooks.get(organizationId, id));
  }

  @Patch(':id')
  @Conditional()
  @ApiOperation({
    summary: 'Change an endpoint (enable, disable, url, events, description)',
    description: 'An admin may subscribe to every event type (an API key only to those its scopes read).',
  })
  @ApiDataResponse(WebhookResponse)
  @ApiProblems(400, 404, 413, 415)
  async update(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', HOOK) id: string,
    @Body() body: UpdateWebhookDto,
    @IfMatch() ifMatch: IfMatchHeader,
    @Audited() source: AuditSource,
  ): Promise<{ data: WebhookResponse }> {
    assertOwnOrganization(admin, organizationId);
    return webhookBody(await this.webhooks.update(organizationId, id, body ?? {}, ADMIN_READS, source, ifMatch.of(webhookBody)));
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @ApiOperation({ summary: 'Delete an endpoint', description: 'Its pending deliveries go with it.' })
  @ApiDataResponse(WebhookDeletion)
  @ApiProblems(404)
  async delete(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', HOOK) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
    @Audited() source: AuditSource,
  ): Promise<{ data: WebhookDeletion }> {
    assertOwnOrganization(admin, organizationId);
    await this.webhooks.delete(organizationId, id, source, ifMatch.of(webhookBody));
    return { data: { id, deleted: true } };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'As POST /api/v1/webhooks/{id}/rotate-secret: for 24 hours every delivery carries signatures by both the new and the old secret.',
  })
  @ApiDataResponse(WebhookSecretResponse)
  @ApiProblems(404)
  async rotate(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', HOOK) id: string,
    @Audited() source: AuditSource,
  ): Promise<{ data: WebhookSecretResponse }> {
    assertOwnOrganization(admin, organizationId);
    const rotated = await this.webhooks.rotateSecret(organizationId, id, source);
    return { data: { id: rotated.id, secret: rotated.secret } };
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "An endpoint's delivery log", description: 'Newest first; kept 30 days.' })
  @ApiListResponse(DeliveryResponse)
  @ApiProblems(400, 404)
  async deliveries(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', HOOK) id: string,
    @Query() query: DeliveryListQuery,
  ): Promise<ListResponse<DeliveryResponse>> {
    assertOwnOrganization(admin, organizationId);
    const page = resolvePage(query);
    const { items, total } = await this.webhooks.deliveries(organizationId, id, query.status, page);
    return pageOf(items.map(toDelivery), total, page);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deliver again now', description: 'The delivery becomes pending, due now, with a fresh set of attempts.' })
  @ApiDataResponse(DeliveryResponse)
  @ApiProblems(404)
  async redeliver(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', HOOK) id: string,
    @Param('deliveryId', UuidParam('Delivery')) deliveryId: string,
  ): Promise<{ data: DeliveryResponse }> {
    assertOwnOrganization(admin, organizationId);
    return { data: toDelivery(await this.webhooks.redeliver(organizationId, id, deliveryId)) };
  }

  @Post(':id/ping')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a webhook.ping event to this endpoint' })
  @ApiDataResponse(DeliveryResponse)
  @ApiProblems(404)
  async ping(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Param('id', HOOK) id: string,
  ): Promise<{ data: DeliveryResponse }> {
    assertOwnOrganization(admin, organizationId);
    return { data: toDelivery(await this.webhooks.ping(organizationId, id)) };
  }
}
