/** This context's migrations, one line each (TypeORM runs every context's in the order of their timestamps). */
export { WebhooksInit1764030000000 } from './1764030000000-webhooks-init';
export { FailedDeliveriesIndex1764300000000 } from './1764300000000-failed-deliveries-index';
export { WebhooksMaskPingUrls1764340000000 } from './1764340000000-mask-ping-urls';
export { WebhooksDeliveryFairness1764340000100 } from './1764340000100-delivery-fairness';
