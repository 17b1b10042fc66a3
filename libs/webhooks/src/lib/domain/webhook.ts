/** A subscriber: where an organization's events go, signed with its secret. */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  secret: string;
  /** The secret before the last rotation, still used to sign until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  createdAt: Date;
}

/** A delivery claimed for one attempt (under a lease), with what the attempt sends and signs. */
export interface ClaimedDelivery {
  organizationId: string;
  deliveryId: string;
  attempts: number;
  lease: Date;
  endpoint: Pick<WebhookEndpoint, 'id' | 'url' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'> & {
    /** The endpoint's timeouts in a row when this attempt was claimed. */
    timeoutsAtClaim: number;
  };
  event: { id: string; type: string; createdAt: Date; data: unknown; previousStatus: string | null };
}

/** The change feed's position: after the event `seq` of transaction `txId`. */
export interface FeedPosition {
  txId: string;
  seq: string;
}

/** An event of the change feed, with its position. */
export interface FeedEvent extends FeedPosition {
  id: string;
  type: string;
  createdAt: Date;
  data: unknown;
  previousStatus: string | null;
}

/** How long the old secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Events and deliveries are kept this long. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** At most this much of an endpoint's answer is kept in the delivery log. */
export const RESPONSE_BODY_BYTES = 1024;

/** The secrets a delivery is signed with now: the current one, and the previous during its overlap. */
export function signingSecrets(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  now: Date,
): string[] {
  const secrets = [endpoint.secret];
  if (
    endpoint.previousSecret &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime()
  ) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}
