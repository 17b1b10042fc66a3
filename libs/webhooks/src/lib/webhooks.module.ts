import { Module } from '@nestjs/common';
import { declareEventTypes, declareScopes } from '@almanac/identity';
import { registerErrorCodes } from '@almanac/shared';
import { AdminWebhooksController } from './api/admin-webhooks.controller';
import { ChangesController, WebhooksController } from './api/webhooks.controller';
import { ChangesService } from './application/changes.service';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhooksService } from './application/webhooks.service';
import { WEBHOOKS_ERROR_CODES } from './domain/webhook-errors';
import { WebhookRepository } from './infrastructure/webhook.repository';
import { WebhookMetrics } from './infrastructure/webhook-metrics';
import { WebhookErasureRepository } from './infrastructure/webhook-erasure.repository';
import { WebhookErasureService } from './application/webhook-erasure.service';

/** The scopes this context's routes require (identity keeps the vocabulary of API keys). */
declareScopes('webhooks', ['webhooks:read', 'webhooks:write']);

/** The changes this context announces through the outbox, and the scope that reads each. */
declareEventTypes('webhooks', { 'webhook.ping': 'webhooks:read' });

/** This context's own error codes (the kernel's are in @almanac/shared). */
registerErrorCodes('webhooks', WEBHOOKS_ERROR_CODES);

@Module({
  controllers: [WebhooksController, ChangesController, AdminWebhooksController],
  providers: [WebhooksService, ChangesService, WebhookDispatcher, WebhookRepository, WebhookMetrics, WebhookErasureRepository, WebhookErasureService],
  exports: [WebhooksService, WebhookDispatcher, WebhookErasureService],
})
export class WebhooksModule {}
