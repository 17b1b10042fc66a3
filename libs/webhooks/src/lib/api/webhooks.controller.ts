import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiPrincipal, Audited, Principal, RequireScope, V1Controller } from '@almanac/identity';
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
import { ChangesService, CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT } from '../application/changes.service';
import { eventPayload } from '../application/webhook-dispatcher';
import { WebhooksService } from '../application/webhooks.service';
import { MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION } from '../domain/webhook-errors';
import { ChangesQuery, CreateWebhookDto, DeliveryListQuery, UpdateWebhookDto } from './dto/webhook.dto';
import { DELIVERY_ORDER, SUBSCRIPTION_SCOPES } from './webhook-docs';
import {
  ChangeEvent,
  ChangesPage,
  CreatedWebhookResponse,
  DeliveryResponse,
  toDelivery,
  toWebhook,
  webhookBody,
  WebhookDeletion,
  WebhookResponse,
  WebhookSecretResponse,
} from './dto/webhook.response';

const HOOK = UuidParam('Webhook');

@V1Controller('webhooks', 'webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @RequireScope('webhooks:write')
  @ApiOperation({
    summary: 'Subscribe an endpoint',
    description:
      'Deliveries are Standard Webhooks: POST with `webhook-id`, `webhook-timestamp` and `webhook-signature` ' +
      '(`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the secret). The secret is in this answer only. ' +
      `An organization has at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION} endpoints: 409 webhook_limit_reached. ` +
      `${SUBSCRIPTION_SCOPES} ${DELIVERY_ORDER}`,
  })
  @ApiDataResponse(CreatedWebhookResponse, 201, 'The endpoint, with its secret (shown once)')
  @ApiProblems(400, 403, 409, 413, 415)
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateWebhookDto,
    @Audited() source: AuditSource,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: CreatedWebhookResponse }> {
    const created = await this.webhooks.create(principal.organizationId, body, principal.scopes, source);
    res.setHeader('Location', `/api/v1/webhooks/${created.id}`);
    return { data: { ...toWebhook(created), secret: created.secret } };
  }

  @Get()
  @RequireScope('webhooks:read')
  @ApiOperation({ summary: 'List endpoints', description: 'Oldest first.' })
  @ApiListResponse(WebhookResponse)
  @ApiProblems(400, 403)
  async list(
    @Principal() principal: ApiPrincipal,
    @Query() query: PageQuery,
  ): Promise<ListResponse<WebhookResponse>> {
    const page = resolvePage(query);
    const { items, total } = await this.webhooks.list(principal.organizationId, page);
    return pageOf(items.map(toWebhook), total, page);
  }

  @Get(':id')
  @Conditional()
  @RequireScope('webhooks:read')
  @ApiOperation({ summary: 'Get an endpoint' })
  @ApiDataResponse(WebhookResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', HOOK) id: string,
  ): Promise<{ data: WebhookResponse }> {
    return webhookBody(await this.webhooks.get(principal.organizationId, id));
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('webhooks:write')
  @ApiOperation({
    summary: 'Change an endpoint',
    description:
      `url, events, description, enabled; a \`410 Gone\` answer sets enabled to false. ${SUBSCRIPTION_SCOPES}`,
  })
  @ApiDataResponse(WebhookResponse)
  @ApiProblems(400, 403, 404, 413, 415)
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', HOOK) id: string,
    @Body() body: UpdateWebhookDto,
    @IfMatch() ifMatch: IfMatchHeader,
    @Audited() source: AuditSource,
  ): Promise<{ data: WebhookResponse }> {
    return webhookBody(
      await this.webhooks.update(principal.organizationId, id, body ?? {}, principal.scopes, source, ifMatch.of(webhookBody)),
    );
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('webhooks:write')
  @ApiOperation({ summary: 'Delete an endpoint', description: 'Its pending deliveries go with it.' })
  @ApiDataResponse(WebhookDeletion)
  @ApiProblems(403, 404)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', HOOK) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
    @Audited() source: AuditSource,
  ): Promise<{ data: WebhookDeletion }> {
    await this.webhooks.delete(principal.organizationId, id, source, ifMatch.of(webhookBody));
    return { data: { id, deleted: true } };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'For 24 hours every delivery carries signatures by both the new and the old secret.',
  })
  @ApiDataResponse(WebhookSecretResponse)
  @ApiProblems(403, 404)
  async rotate(
    @Principal() principal: ApiPrincipal,
    @Param('id', HOOK) id: string,
    @Audited() source: AuditSource,
  ): Promise<{ data: WebhookSecretResponse }> {
    const rotated = await this.webhooks.rotateSecret(principal.organizationId, id, source);
    return { data: { id: rotated.id, secret: rotated.secret } };
  }

  @Get(':id/deliveries')
  @RequireScope('webhooks:read')
  @ApiOperation({ summary: 'The delivery log', description: 'Newest first; kept 30 days.' })
  @ApiListResponse(DeliveryResponse)
  @ApiProblems(400, 403, 404)
  async deliveries(
    @Principal() principal: ApiPrincipal,
    @Param('id', HOOK) id: string,
    @Query() query: DeliveryListQuery,
  ): Promise<ListResponse<DeliveryResponse>> {
    const page = resolvePage(query);
    const { items, total } = await this.webhooks.deliveries(principal.organizationId, id, query.status, page);
    return pageOf(items.map(toDelivery), total, page);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiOperation({
    summary: 'Deliver again now',
    description: 'The delivery becomes pending, due now, with a fresh set of attempts.',
  })
  @ApiDataResponse(DeliveryResponse)
  @ApiProblems(403, 404)
  async redeliver(
    @Principal() principal: ApiPrincipal,
    @Param('id', HOOK) id: string,
    @Param('deliveryId', UuidParam('Delivery')) deliveryId: string,
  ): Promise<{ data: DeliveryResponse }> {
    return { data: toDelivery(await this.webhooks.redeliver(principal.organizationId, id, deliveryId)) };
  }

  @Post(':id/ping')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiOperation({ summary: 'Send a webhook.ping event to this endpoint' })
  @ApiDataResponse(DeliveryResponse)
  @ApiProblems(403, 404)
  async ping(
    @Principal() principal: ApiPrincipal,
    @Param('id', HOOK) id: string,
  ): Promise<{ data: DeliveryResponse }> {
    return { data: toDelivery(await this.webhooks.ping(principal.organizationId, id)) };
  }
}

@V1Controller('changes', 'webhooks')
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get()
  @ApiOperation({
    summary: 'The change feed',
    description:
      'Every committed event of the organization exactly once, oldest first, as long as the client keeps following ' +
      '`next_cursor`: events are ordered by the transaction that wrote them and shown only once no transaction still ' +
      'running could write one before them, so an event committed later never appears behind a cursor already given ' +
      'out. Needs no scope of its own: a key sees booking.* with bookings:read, event.* and registration.* with ' +
      'events:read, post.* with posts:read, calendar.synced and webhook.ping with webhooks:read. Events are kept 30 days. ' +
      'Webhook deliveries may arrive out of order; this feed is where the order is.',
  })
  @ApiOkResponse({
    type: ChangesPage,
    headers: {
      Link: {
        description: 'RFC 8288 links: `first` (the feed from its oldest event) and `next` (this feed after `next_cursor`, to keep following), each keeping every other parameter',
        schema: { type: 'string' },
      },
    },
  })
  @ApiProblems(400, 403)
  async page(
    @Principal() principal: ApiPrincipal,
    @Query() query: ChangesQuery,
  ): Promise<{ data: ChangeEvent[]; meta: { next_cursor: string | null; hasMore: boolean } }> {
    const limit = Math.min(query.limit ?? CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT);
    const { events, nextCursor, hasMore } = await this.changes.page(
      principal.organizationId,
      principal.scopes,
      query.after,
      limit,
    );
    return {
      data: events.map((e) => eventPayload(principal.organizationId, e) as unknown as ChangeEvent),
      meta: { next_cursor: nextCursor, hasMore },
    };
  }
}
