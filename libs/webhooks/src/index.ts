import type { MigrationClass } from '@almanac/shared';
import * as migrations from './lib/infrastructure/migrations';

export { WebhooksModule } from './lib/webhooks.module';
export { WebhookDispatcher } from './lib/application/webhook-dispatcher';
export { WebhooksService } from './lib/application/webhooks.service';
/** For the operators' erasure of a person's data. */
export { WebhookErasureService } from './lib/application/webhook-erasure.service';
/** Endpoints one organization may have at once (409 `webhook_limit_reached` beyond). */
export { MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION } from './lib/domain/webhook-errors';
/** Attempts in flight per endpoint and per organization, across instances (tests check them). */
export { MAX_IN_FLIGHT_PER_ENDPOINT, MAX_IN_FLIGHT_PER_ORGANIZATION } from './lib/domain/delivery-limits';

/** This context's migrations; the app runs them with every other context's. */
export const webhooksMigrations: MigrationClass[] = Object.values(migrations);
