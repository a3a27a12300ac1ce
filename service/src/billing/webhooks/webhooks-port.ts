// Webhook endpoints and their deliveries, as the webhook verbs and the delivery worker see them
// (storage/repos/webhooks-repo.ts), and the two outside parts: the HTTP client that posts a
// delivery and the signer (src/webhooks/).
import type { Sealed } from '../signing-keys/signing-keys-port.ts';
import type { EventType } from '../events/event-types.ts';
import type { StoredEvent } from '../events/events-port.ts';

export type EndpointEventTypes = (EventType | '*')[];

export interface WebhookEndpoint {
  id: string;
  merchant_id: string;
  url: string;
  event_types: EndpointEventTypes;
  created_at: Date;
  disabled_at: Date | null;
  disabled_reason: string | null;
  /** When the previous secret (after a rotation) stops signing; null when there is none. */
  previous_expires_at: Date | null;
}

export interface SealedEndpoint extends WebhookEndpoint {
  secret: Sealed;
  previous: Sealed | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  attempted_at: Date;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  delivered: boolean;
}

export interface Delivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  log: DeliveryAttempt[];
}

/** A delivery leased to one worker for one attempt, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempts: number;
  /** Start of the current retry window: creation, or the last manual redelivery. */
  opened_at: Date;
  url: string;
  secret: Sealed;
  /** Still signing: a rotation's previous secret before its expiry. */
  previous: Sealed | null;
  event: StoredEvent;
  /** The database's clock at the claim: retries and the disable rule use it, whatever the replica's. */
  now: Date;
}

export interface AttemptRecord {
  delivery_id: string;
  endpoint_id: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhooksRepo {
  insertEndpoint(e: {
    id: string;
    merchant_id: string;
    url: string;
    event_types: EndpointEventTypes;
    secret: Sealed;
  }): Promise<WebhookEndpoint>;
  /** Live (not deleted) endpoints; merchant_id undefined = every merchant's (the operator). */
  listEndpoints(merchantId: string | undefined): Promise<WebhookEndpoint[]>;
  findEndpoint(id: string): Promise<SealedEndpoint | null>;
  /** Soft delete; its pending deliveries end as failed. null when absent or already deleted. */
  deleteEndpoint(id: string): Promise<WebhookEndpoint | null>;
  /** The new secret signs from now on; the current one keeps signing until previousExpiresAt. */
  rotateSecret(id: string, secret: Sealed, previousExpiresAt: Date): Promise<WebhookEndpoint | null>;

  /** At most `limit` due deliveries of enabled endpoints, leased for leaseMs (FOR UPDATE SKIP LOCKED). */
  claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** A 2xx: delivered, the endpoint is healthy again. */
  recordSuccess(a: AttemptRecord): Promise<void>;
  /** Anything else: the next attempt at retryAt, or failed for good when retryAt is null. Returns since when the endpoint fails. */
  recordFailure(a: AttemptRecord, retryAt: Date | null): Promise<{ failingSince: Date }>;
  /** Disables the endpoint with its reason and fails its pending deliveries. */
  disableEndpoint(id: string, reason: string): Promise<void>;
  /** The deliveries of one event, with their attempt logs. */
  listDeliveries(eventId: string): Promise<Delivery[]>;
  /**
   * POST /events/{id}/redeliver: every enabled endpoint of the merchant that listens to the event's
   * type gets it again now (a finished delivery is reopened with a fresh retry window, a missing
   * one created). Returns how many deliveries are now pending.
   */
  redeliver(eventId: string, merchantId: string, type: EventType): Promise<number>;
}

/** What a receiver answered, or why there was no answer. */
export type SendResult = { status: number; durationMs: number } | { error: string; durationMs: number };

/** Posts one delivery: no redirects followed, timeoutMs for the whole exchange. */
export interface WebhookSender {
  send(input: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<SendResult>;
}

/** Standard Webhooks headers for one message, signed by every given secret. */
export interface WebhookSigner {
  newSecret(): string;
  headers(input: { id: string; timestamp: Date; body: string; secrets: string[] }): Record<string, string>;
}

/** The URL rule of production: https, and a host that is not loopback, private or link-local. */
export interface UrlPolicy {
  /** A reason when the URL may not receive webhooks. */
  refuse(url: string): Promise<string | undefined>;
}
