// POST/GET/DELETE /webhook-endpoints and POST /webhook-endpoints/{id}/rotate-secret (product.md):
// the secret appears once, in the answer that made it; an endpoint object never holds it.
import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../../billing/events/event-types.ts';
import type { EndpointEventTypes, WebhookEndpoint } from '../../billing/webhooks/webhooks-port.ts';
import { isoTimestamp, jsonBody, responseSchema, toIso, uuidField } from './common.ts';

const MAX_URL_LENGTH = 2048;

export const CreateEndpointBody = jsonBody({
  url: z
    .string()
    .max(MAX_URL_LENGTH, `url must be at most ${MAX_URL_LENGTH} characters`)
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'url must be an http:// or https:// URL')
    .refine(
      (u) => !URL.canParse(u) || (new URL(u).username === '' && new URL(u).password === ''),
      'url must not carry credentials',
    )
    .meta({
      description:
        'Where events are POSTed. https only in production, and never to loopback, private or link-local addresses there.',
    }),
  event_types: z
    .array(z.enum(['*', ...EVENT_TYPES] as [EventType | '*', ...(EventType | '*')[]]))
    .min(1, 'event_types must name at least one event type')
    .max(EVENT_TYPES.length + 1)
    .meta({ description: 'The event types to receive; "*" for every type, present and future.' }),
  merchant_id: uuidField('merchant_id')
    .optional()
    .meta({ description: "Required with the operator key (whose merchant?); a merchant key's own merchant otherwise" }),
});
export type CreateEndpointBody = z.infer<typeof CreateEndpointBody>;

export const RotateSecretBody = jsonBody({
  overlap_seconds: z
    .number()
    .int('overlap_seconds must be a whole number of seconds')
    .min(0, 'overlap_seconds must be from 0 to 604800')
    .max(604_800, 'overlap_seconds must be from 0 to 604800')
    .optional()
    .meta({ description: 'How long the previous secret keeps signing beside the new one; default 86400 (a day)' }),
});
export type RotateSecretBody = z.infer<typeof RotateSecretBody>;

export const EndpointListQuery = z.object({ merchant_id: uuidField('merchant_id').optional() });
export type EndpointListQuery = z.infer<typeof EndpointListQuery>;

export const WebhookEndpointJson = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  event_types: z.array(z.string()),
  created_at: isoTimestamp,
  disabled_at: isoTimestamp
    .nullable()
    .meta({
      description:
        'Set when every delivery kept failing for WEBHOOK_DISABLE_AFTER_MS; nothing is sent to it after that',
    }),
  disabled_reason: z.string().nullable(),
  previous_secret_expires_at: isoTimestamp
    .nullable()
    .meta({ description: 'After a rotation: until when the previous secret still signs beside the new one' }),
});
export type WebhookEndpointJson = z.infer<typeof WebhookEndpointJson>;

export const endpointJson = (e: WebhookEndpoint): WebhookEndpointJson => ({
  id: e.id,
  url: e.url,
  event_types: e.event_types as EndpointEventTypes,
  created_at: toIso(e.created_at),
  disabled_at: e.disabled_at ? toIso(e.disabled_at) : null,
  disabled_reason: e.disabled_reason,
  previous_secret_expires_at:
    e.previous_expires_at && e.previous_expires_at > new Date() ? toIso(e.previous_expires_at) : null,
});

const secret = z
  .string()
  .nullable()
  .meta({
    description:
      'The signing secret (whsec_…): shown once, never again (stored encrypted); null in an answer replayed for an Idempotency-Key',
  });
export const EndpointWithSecretResponse = z.strictObject({ webhook_endpoint: WebhookEndpointJson, secret });
export const EndpointResponse = z.strictObject({ webhook_endpoint: WebhookEndpointJson });
export const EndpointListResponse = z.strictObject({ webhook_endpoints: z.array(WebhookEndpointJson) });
export const EndpointDeletedResponse = z.strictObject({
  message: z.literal('Webhook endpoint deleted'),
  webhook_endpoint: WebhookEndpointJson,
});

export const endpointResponses = {
  create: { 201: responseSchema(EndpointWithSecretResponse) },
  rotate: { 200: responseSchema(EndpointWithSecretResponse) },
  get: { 200: responseSchema(EndpointResponse) },
  list: { 200: responseSchema(EndpointListResponse) },
  delete: { 200: responseSchema(EndpointDeletedResponse) },
};
