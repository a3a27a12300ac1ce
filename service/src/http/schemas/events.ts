// Events and their deliveries on the wire (product.md): GET /events, GET /events/{id},
// GET /events/{id}/deliveries, and the body of every webhook. One Zod schema per event type, made
// from the same object schemas the API answers with, so the OpenAPI document shows each payload.
import { z } from 'zod';
import {
  EVENT_OBJECT_KINDS,
  EVENT_TRIGGERS,
  EVENT_TYPES,
  type EventObjectKind,
  type EventType,
} from '../../billing/events/event-types.ts';
import type { EventPresenter } from '../../billing/events/emit-event.ts';
import type { Delivery } from '../../billing/webhooks/webhooks-port.ts';
import { apiKeyJson, ApiKeyJson } from './api-keys.ts';
import { isoTimestamp, jsonBody, responseSchema, toIso, uuidField } from './common.ts';
import { planJson, PlanJson } from './plans.ts';
import { pullJson, PullJson } from './pulls.ts';
import { signingKeyJson, SigningKeyResponse } from './signing-keys.ts';
import { subscriptionJson, SubscriptionJson } from './subscriptions.ts';
import { limit, cursor, nextCursor } from './listings.ts';

/** The API's own JSON of each object, for data.object (billing/events/emit-event.ts). */
export const eventPresenter: EventPresenter = {
  plan: planJson,
  subscription: subscriptionJson,
  pull: pullJson,
  apiKey: (k) => ({ ...apiKeyJson(k), ...(k.revoked_at ? { revoked_at: toIso(k.revoked_at) } : {}) }),
  signingKey: signingKeyJson,
};

const OBJECT_SCHEMAS: Record<EventObjectKind, z.ZodType> = {
  plan: PlanJson,
  subscription: SubscriptionJson,
  pull: PullJson,
  api_key: ApiKeyJson.extend({ revoked_at: isoTimestamp.optional() }),
  signing_key: SigningKeyResponse.shape.signing_key,
};

export const EventActorJson = z
  .union([
    z.strictObject({ type: z.literal('api_key'), id: z.uuid() }),
    z.strictObject({ type: z.literal('operator') }),
    z.strictObject({ type: z.literal('anonymous') }),
    z.strictObject({ type: z.literal('system'), job: z.string() }),
  ])
  .meta({
    description:
      'Who caused the event: a merchant API key (its id), the operator key, a keyless request (open mode), or the service itself (the reconciler observing a pull).',
  });

const eventSchema = (type: EventType) =>
  z
    .strictObject({
      id: z
        .uuid()
        .meta({ description: 'Also the webhook-id header of every delivery of this event, the same on every retry' }),
      type: z.literal(type),
      created_at: isoTimestamp,
      merchant_id: z.uuid(),
      actor: EventActorJson,
      data: z.strictObject({ object: OBJECT_SCHEMAS[EVENT_OBJECT_KINDS[type]] }),
    })
    .meta({ description: `Sent when ${EVENT_TRIGGERS[type]}.` });

/** One schema per type: the OpenAPI document's webhooks section and components. */
export const EVENT_SCHEMAS: Record<EventType, z.ZodType> = Object.fromEntries(
  EVENT_TYPES.map((t): [EventType, z.ZodType] => [t, eventSchema(t)]),
) as Record<EventType, z.ZodType>;

// The serializer sees data.object without a type (any object, written by JSON.stringify), so
// exact amounts read back from the database (JSON.rawJSON) keep every digit.
export const EventJson = z.strictObject({
  id: z.uuid(),
  type: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
  created_at: isoTimestamp,
  merchant_id: z.uuid(),
  actor: EventActorJson,
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

export const EventListQuery = z.object({
  type: z.enum(EVENT_TYPES as [EventType, ...EventType[]]).optional(),
  object_id: uuidField('object_id')
    .optional()
    .meta({
      description:
        'Only events about this object (plan, subscription, pull, API key; a signing key is named by its merchant id)',
    }),
  merchant_id: uuidField('merchant_id')
    .optional()
    .meta({ description: "The operator's filter; a merchant key always sees only its own merchant" }),
  limit,
  cursor,
});
export type EventListQuery = z.infer<typeof EventListQuery>;

export const DeliveryJson = z.strictObject({
  id: z.uuid(),
  endpoint_id: z.uuid(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: isoTimestamp.nullable().meta({ description: 'When the next attempt is due (pending only)' }),
  last_error: z.string().nullable(),
  created_at: isoTimestamp,
  delivered_at: isoTimestamp.nullable(),
  log: z.array(
    z.strictObject({
      attempted_at: isoTimestamp,
      response_status: z.number().int().nullable(),
      error: z.string().nullable(),
      duration_ms: z.number().int(),
      delivered: z.boolean(),
    }),
  ),
});

export const deliveryJson = (d: Delivery): z.infer<typeof DeliveryJson> => ({
  id: d.id,
  endpoint_id: d.endpoint_id,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.next_attempt_at ? toIso(d.next_attempt_at) : null,
  last_error: d.last_error,
  created_at: toIso(d.created_at),
  delivered_at: d.delivered_at ? toIso(d.delivered_at) : null,
  log: d.log.map((l) => ({ ...l, attempted_at: toIso(l.attempted_at) })),
});

/** POST /events/{id}/redeliver takes no parameters; `{}` (or no body) is accepted. */
export const RedeliverBody = jsonBody({});

export const EventListResponse = z.strictObject({ events: z.array(EventJson), next_cursor: nextCursor });
export const GetEventResponse = z.strictObject({ event: EventJson });
export const DeliveriesResponse = z.strictObject({ deliveries: z.array(DeliveryJson) });
export const RedeliverResponse = z.strictObject({
  message: z.literal('Event scheduled for redelivery'),
  deliveries: z.number().int(),
});

export const eventResponses = {
  list: { 200: responseSchema(EventListResponse) },
  get: { 200: responseSchema(GetEventResponse) },
  deliveries: { 200: responseSchema(DeliveriesResponse) },
  redeliver: { 202: responseSchema(RedeliverResponse) },
};
