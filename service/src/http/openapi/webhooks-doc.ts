// The OpenAPI document's `webhooks` section (OpenAPI 3.1): one entry per event type, its body the
// event's own Zod schema (schemas/events.ts, made from the API's object schemas), with the
// Standard Webhooks headers and how a receiver verifies them. Also the Idempotency-Key header that
// every POST takes.
import { z } from 'zod';
import { EVENT_TRIGGERS, EVENT_TYPES } from '../../billing/events/event-types.ts';
import { EVENT_SCHEMAS } from '../../schemas/events.ts';
import { forEachExact } from '../../schemas/exact-number.ts';

export const VERIFY_HOW =
  'Verify before trusting a body: with any Standard Webhooks library, e.g. `new Webhook(secret).verify(rawBody, headers)` from the `standardwebhooks` npm package, ' +
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the doc shows the signed-content template literally
  'on the raw body as received (not re-serialised JSON). The signed content is `${webhook-id}.${webhook-timestamp}.${body}`, HMAC-SHA256 under the base64-decoded ' +
  "secret after `whsec_`; webhook-signature lists `v1,<base64>` signatures separated by spaces (two during a secret rotation's overlap: accept either). Refuse " +
  'timestamps more than 5 minutes from now. Answer 2xx quickly; anything else (or no answer within WEBHOOK_TIMEOUT_MS, or a redirect) is retried: the first retry ' +
  'within 10 s, then doubling with jitter up to 6 h apart, for 3 days. Delivery is at least once: drop a webhook-id you have already processed.';

const header = (description: string, example: string) => ({
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
  example,
});

const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    ...header(
      'The event id: the same on every retry and redelivery (deduplicate on it)',
      '5f0c1e7a-2b8d-4c3e-9a1f-6d7e8f901234',
    ),
  },
  { name: 'webhook-timestamp', ...header('Seconds since the epoch when this attempt was signed', '1795365124') },
  {
    name: 'webhook-signature',
    ...header(
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures',
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    ),
  },
];

function bodySchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _s, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }) as Record<
    string,
    unknown
  >;
  forEachExact(json, (node) => {
    node.type = 'number';
  });
  return json;
}

export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `${type}: ${EVENT_TRIGGERS[type]}`,
          description: VERIFY_HOW,
          tags: ['Webhooks'],
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: bodySchema(EVENT_SCHEMAS[type]) } } },
          responses: { '2XX': { description: 'Received: delivered, never sent again (unless redelivered by hand)' } },
        },
      },
    ]),
  );
}

export const IDEMPOTENCY_HEADER = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Makes a retry safe: the first answer (status and body, a 500 included) is replayed for 24 h to any request with the same key (with `idempotent-replayed: true`; ' +
        'a secret in it — api_key, secret — replays as null). The same key with another body is 422 `idempotency_key_reused`; while the first is running, 409 ' +
        '`idempotency_key_in_use`. Keys are per API key (keyless requests in open mode share one space).',
    },
  },
};
