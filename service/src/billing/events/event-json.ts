// An event as clients read it, from GET /events and in a webhook's body alike: product.md's shape
// plus `actor`, who caused it. One function, so the two can never differ.
import type { StoredEvent } from './events-port.ts';

export const eventJson = (e: StoredEvent) => ({
  id: e.id,
  type: e.type,
  created_at: e.created_at.toISOString(),
  merchant_id: e.merchant_id,
  actor: e.actor,
  data: e.data,
});

/** The exact bytes a webhook carries and its signature covers (amounts keep every digit). */
export const eventBody = (e: StoredEvent): string => JSON.stringify(eventJson(e));
