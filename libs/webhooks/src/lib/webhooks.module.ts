import { Module } from '@nestjs/common';
import { AdminWebhooksController } from './api/admin-webhooks.controller';
import { ChangesController, WebhooksController } from './api/webhooks.controller';
import { ChangesService } from './application/changes.service';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhooksService } from './application/webhooks.service';
import { WebhookRepository } from './infrastructure/webhook.repository';

@Module({
  controllers: [WebhooksController, ChangesController, AdminWebhooksController],
  providers: [WebhooksService, ChangesService, WebhookDispatcher, WebhookRepository],
  exports: [WebhooksService, WebhookDispatcher],
})
export class WebhooksModule {}
