// What the OpenAPI document says about each route beyond its schemas: summary, tag, example
// bodies and which errors it can answer. Errors are named by code and get their status from
// http/errors.ts's table, so the document and the answers cannot disagree on a status. A route
// missing here fails the OpenAPI test, so a new route cannot ship undocumented.
import type { BillingErrorCode } from '../../billing/errors.ts';
import { PULL_REJECTION_CODES } from '../../billing/pulls/vault-gateway.ts';
import * as ex from './examples.ts';

/** Errors answered at the edge, before any verb runs. */
export type EdgeErrorCode = 'INVALID_INPUT' | 'BODY_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'RATE_LIMITED';
export const EDGE_STATUS: Record<EdgeErrorCode, number> = {
  INVALID_INPUT: 400,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
};

/** The response description of each error code in the document. */
export const ERROR_TEXT: Record<BillingErrorCode | EdgeErrorCode, string> = {
  INVALID_INPUT: 'A field is missing or breaks a rule: "Invalid input on <field>: <reason>", first failing field only',
  BODY_TOO_LARGE: 'Body larger than BODY_LIMIT_BYTES',
  UNSUPPORTED_MEDIA_TYPE: 'A content type other than application/json',
  RATE_LIMITED: 'Too many requests from this client (only when RATE_LIMIT_MAX is set)',
  VALIDATION: 'Input breaks a rule checked by the service',
  API_KEY_REQUIRED: 'No API key, and this route needs one (`code: api_key_required`)',
  API_KEY_INVALID:
    'The API key is unknown, revoked, of a deleted merchant, or not sent as Bearer (`code: api_key_invalid`)',
  OPERATOR_ONLY: 'A merchant key on a route only the operator key may use (`code: operator_only`)',
  DATABASE_UNAVAILABLE: 'The database cannot be reached (the cause is logged, never shown)',
  SIGNING_KEY_STORE:
    'Stored signing keys cannot be sealed or opened: SIGNING_KEY_ENCRYPTION_KEY is not set, or lacks the key a ciphertext names',
  INVALID_SECRET: 'merchant_secret is not a Stellar secret key',
  SECRET_MISMATCH: "merchant_secret is not the plan owner's wallet (`code: secret_mismatch`)",
  CONFLICT:
    'The object is in a state that forbids the request (`code`: `subscription_canceled`, `subscription_paused`, `plan_archived`)',
  NOT_FOUND:
    "No such resource, its merchant was deleted, or it is another merchant's (a merchant key sees its own objects only)",
  CONTRACT_ID_MISSING: 'CONTRACT_ID is not configured',
  DB_NOT_INITIALIZED: 'No database configured',
  PULL_REJECTED: `The pull was refused before inclusion; \`code\` says why, one of: ${PULL_REJECTION_CODES.map((c) => `\`${c}\``).join(', ')}`,
  CHAIN_UNAVAILABLE:
    'The Soroban RPC did not answer in time or failed before anything was sent (`code`: `chain_unavailable`); nothing changed',
  DATABASE: "A database error, with the database's own message",
  IDEMPOTENCY_IN_PROGRESS:
    'The first request with this Idempotency-Key is still running (`code: idempotency_key_in_use`); retry once it has answered',
  IDEMPOTENCY_MISMATCH:
    'This Idempotency-Key was first used with another method, path or body (`code: idempotency_key_reused`)',
};

/** The status table of billing/subscriptions/status-machine.ts, for readers of the document. */
const STATUS_TABLE = `Statuses and their moves (one table, enforced in one place):

| from \\ event | pull confirmed | 502 (manual) | collector try failed | last try failed | pause | resume | cancel |
|---|---|---|---|---|---|---|---|
| active | active | past_due | past_due | the plan's final_status | paused | — | canceled |
| past_due | active | past_due | past_due | the plan's final_status | paused | — | canceled |
| unpaid | active | unpaid | — | — | paused | — | canceled |
| paused | — | — | — | — | — | the status held when paused | canceled |
| canceled | — | — | — | — | — | — | — |

\`health\` is the latest early-warning check ahead of the due date.`;

export type ErrorCase = [code: BillingErrorCode | EdgeErrorCode, example: Record<string, unknown>];

export interface OperationDoc {
  summary: string;
  tag: 'Merchants' | 'Credentials' | 'Plans' | 'Subscriptions' | 'Pulls' | 'Events' | 'Webhooks' | 'Operations';
  description?: string;
  /** Of the answers, when not JSON. */
  contentType?: string;
  request?: unknown;
  /** Non-error statuses (successes, and /health's 503) -> [description, example body]. */
  answers: Record<number, [string, unknown]>;
  errors: ErrorCase[];
}

const DB: ErrorCase = ['DATABASE', ex.errors.database];
const NO_DB: ErrorCase = ['DB_NOT_INITIALIZED', ex.errors.noDatabase];
const DB_DOWN: ErrorCase = ['DATABASE_UNAVAILABLE', ex.errors.databaseUnavailable];
const badId: ErrorCase = ['INVALID_INPUT', ex.errors.invalid('id', 'id parameter must be a valid UUID')];
/** Every route taking a JSON body can also meet these. */
const bodyErrors: ErrorCase[] = [
  ['BODY_TOO_LARGE', ex.errors.tooLarge],
  ['UNSUPPORTED_MEDIA_TYPE', ex.errors.mediaType],
  DB,
  DB_DOWN,
  NO_DB,
];
const readErrors = (what: string): ErrorCase[] => [badId, ['NOT_FOUND', ex.errors.notFound(what)], DB, DB_DOWN, NO_DB];
const listErrors = (what: string): ErrorCase[] => [
  ...readErrors(what),
  ['INVALID_INPUT', ex.errors.invalid('limit', 'limit must be an integer from 1 to 500')],
];
const page = (key: string, item: unknown) => ({ [key]: [item], next_cursor: ex.cursor });

const credentialRead = (what: string): ErrorCase[] => [
  badId,
  ['NOT_FOUND', ex.errors.notFound(what)],
  DB,
  DB_DOWN,
  NO_DB,
];

export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /events': {
    summary: "The merchant's events, newest first (filters: type, object_id)",
    tag: 'Events',
    description:
      "A key is needed in both modes. A merchant key sees its own events; the operator key every merchant's (or one, with merchant_id). Each event type's payload is in this document's webhooks section.",
    answers: { 200: ['One page; follow next_cursor for older events', { events: [ex.event], next_cursor: ex.cursor }] },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('type', 'Invalid option: expected one of "plan.created"|…')],
      ['INVALID_INPUT', ex.errors.invalid('limit', 'limit must be an integer from 1 to 500')],
      DB,
      DB_DOWN,
      NO_DB,
    ],
  },
  'GET /events/{id}': {
    summary: 'Read an event',
    tag: 'Events',
    answers: { 200: ['The event', { event: ex.event }] },
    errors: credentialRead('Event'),
  },
  'GET /events/{id}/deliveries': {
    summary: "The event's delivery to each endpoint, with every attempt's answer",
    tag: 'Events',
    answers: { 200: ['Each endpoint the event was sent to', { deliveries: [ex.delivery] }] },
    errors: credentialRead('Event'),
  },
  'POST /events/{id}/redeliver': {
    summary: 'Send the event again, now, to every enabled endpoint of the merchant that listens to its type',
    tag: 'Events',
    description:
      'The same webhook-id as before, so receivers can drop what they already have. A fresh retry window starts.',
    request: {},
    answers: {
      202: ['Scheduled; see GET /events/{id}/deliveries', { message: 'Event scheduled for redelivery', deliveries: 1 }],
    },
    errors: [...credentialRead('Event'), ...bodyErrors],
  },
  'POST /webhook-endpoints': {
    summary: 'Register a URL that receives events, signed per Standard Webhooks (the secret is shown once)',
    tag: 'Webhooks',
    description:
      'https only in production, and never to loopback, private or link-local addresses there. With the operator key, merchant_id names the merchant.',
    request: ex.requests.createEndpoint,
    answers: {
      201: ['Created; secret is not shown again', { webhook_endpoint: ex.endpoint, secret: ex.webhookSecret }],
    },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('url', 'url must use https:// in production')],
      ['NOT_FOUND', ex.errors.notFound('Merchant')],
      ['SIGNING_KEY_STORE', ex.errors.webhookSecretStore],
      ...bodyErrors,
    ],
  },
  'GET /webhook-endpoints': {
    summary: "The merchant's webhook endpoints (never their secrets)",
    tag: 'Webhooks',
    answers: { 200: ['Every live endpoint, oldest first', { webhook_endpoints: [ex.endpoint] }] },
    errors: [DB, DB_DOWN, NO_DB],
  },
  'GET /webhook-endpoints/{id}': {
    summary: 'Read a webhook endpoint (disabled_at and disabled_reason say whether and why it was disabled)',
    tag: 'Webhooks',
    answers: { 200: ['The endpoint', { webhook_endpoint: ex.endpoint }] },
    errors: credentialRead('Webhook endpoint'),
  },
  'DELETE /webhook-endpoints/{id}': {
    summary: 'Delete a webhook endpoint: nothing more is sent to it',
    tag: 'Webhooks',
    answers: { 200: ['Deleted', { message: 'Webhook endpoint deleted', webhook_endpoint: ex.endpoint }] },
    errors: credentialRead('Webhook endpoint'),
  },
  'POST /webhook-endpoints/{id}/rotate-secret': {
    summary: 'A new signing secret (shown once); the previous one keeps signing beside it for overlap_seconds',
    tag: 'Webhooks',
    request: { overlap_seconds: 86400 },
    answers: {
      200: [
        'Rotated; during the overlap webhook-signature carries both signatures',
        {
          webhook_endpoint: { ...ex.endpoint, previous_secret_expires_at: '2026-11-23T09:00:00.000Z' },
          secret: ex.webhookSecret,
        },
      ],
    },
    errors: [...credentialRead('Webhook endpoint'), ['SIGNING_KEY_STORE', ex.errors.webhookSecretStore], ...bodyErrors],
  },
  'GET /health': {
    summary: 'Liveness: the process answers and the database answers a trivial query',
    tag: 'Operations',
    answers: {
      200: ['Alive', { status: 'ok' }],
      503: [
        'The database did not answer within 2 s, or none is configured',
        { status: 'unavailable', error: 'database did not answer within 2000 ms' },
      ],
    },
    errors: [],
  },
  'GET /ready': {
    summary: 'Readiness: the database answers and every migration of this build has been applied',
    tag: 'Operations',
    answers: {
      200: [
        'Ready for traffic (in production with AUTH_MODE=open, with a `warning`)',
        { status: 'ready', migrations: 5 },
      ],
      503: [
        'Database unreachable, or the schema is behind this build',
        { status: 'unavailable', error: 'migrations not applied: 0003_listing_indexes' },
      ],
    },
    errors: [],
  },
  'GET /metrics': {
    summary: 'Prometheus metrics: requests, latency, pull outcomes, RPC latency, pending attempts',
    description:
      'On METRICS_PORT instead when that is set; with METRICS_AUTH=operator (the default in keys mode) only the operator key may read it.',
    tag: 'Operations',
    contentType: 'text/plain',
    answers: {
      200: [
        'Prometheus text exposition format',
        'http_requests_total{method="GET",route="/plans/:id",status="200"} 42\nbilling_pull_attempts_pending 0\n',
      ],
    },
    errors: [],
  },
  'POST /merchants': {
    summary: 'Create a merchant and its first API key (shown once)',
    tag: 'Merchants',
    description: 'In keys mode only the operator key may create merchants.',
    request: ex.requests.createMerchant,
    answers: {
      201: [
        'Created; api_key is not shown again',
        { message: 'Merchant created', merchant: ex.merchant, api_key: ex.apiKey },
      ],
    },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('wallet_address', 'must be a valid Stellar Ed25519 public address')],
      ...bodyErrors,
    ],
  },
  'GET /merchants': {
    summary: 'List every live merchant, oldest first (operator)',
    tag: 'Merchants',
    answers: {
      200: ['One page; follow next_cursor for the next', { merchants: [ex.merchant], next_cursor: ex.cursor }],
    },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('limit', 'limit must be an integer from 1 to 500')],
      DB,
      DB_DOWN,
      NO_DB,
    ],
  },
  'POST /merchants/{id}/api-keys': {
    summary: 'Create an API key for a merchant (shown once)',
    tag: 'Credentials',
    request: ex.requests.createApiKey,
    answers: { 201: ['Created; api_key is not shown again', { api_key: ex.apiKey, key: ex.key }] },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('label', 'label cannot be empty')],
      ...readErrors('Merchant'),
      ...bodyErrors,
    ],
  },
  'GET /merchants/{id}/api-keys': {
    summary: "A merchant's live API keys (prefix, label, dates; never the key)",
    tag: 'Credentials',
    answers: { 200: ['Every live key, oldest first', { keys: [ex.key] }] },
    errors: readErrors('Merchant'),
  },
  'DELETE /merchants/{id}/api-keys/{key_id}': {
    summary: 'Revoke an API key: refused at once on this replica, within 10 s on the others',
    tag: 'Credentials',
    answers: {
      200: ['Revoked', { message: 'API key revoked', key: { ...ex.key, revoked_at: '2026-11-22T09:00:00.000Z' } }],
    },
    errors: [
      ...readErrors('Merchant'),
      ['NOT_FOUND', ex.errors.notFound('API key')],
      ['INVALID_INPUT', ex.errors.invalid('key_id', 'key_id parameter must be a valid UUID')],
    ],
  },
  'PUT /merchants/{id}/signing-key': {
    summary:
      "Store the merchant wallet's signing key, encrypted (AES-256-GCM), for /trigger-pull without merchant_secret",
    tag: 'Credentials',
    description: "The secret must be the wallet's own key; it is never returned or logged. Replaces a stored key.",
    request: ex.requests.setSigningKey,
    answers: { 200: ['Stored', { signing_key: ex.signingKey }] },
    errors: [
      ['VALIDATION', ex.errors.wrongWallet],
      ['SIGNING_KEY_STORE', ex.errors.signingKeyStore],
      ...readErrors('Merchant'),
      ...bodyErrors,
    ],
  },
  'DELETE /merchants/{id}/signing-key': {
    summary: "Remove the merchant's stored signing key",
    tag: 'Credentials',
    answers: { 200: ['Removed', { message: 'Signing key removed' }] },
    errors: [...readErrors('Merchant'), ['NOT_FOUND', ex.errors.notFound('Signing key')]],
  },
  'GET /merchants/{id}': {
    summary: 'Read a merchant',
    tag: 'Merchants',
    answers: { 200: ['The merchant', { merchant: ex.merchant }] },
    errors: readErrors('Merchant'),
  },
  'DELETE /merchants/{id}': {
    summary: 'Soft-delete a merchant: its plans are withdrawn, its subscriptions stay readable',
    tag: 'Merchants',
    answers: {
      200: [
        'Deleted',
        { message: 'Merchant deleted', merchant: { ...ex.merchant, deleted_at: '2026-11-21T16:31:59.423Z' } },
      ],
    },
    errors: readErrors('Merchant'),
  },
  'GET /merchants/{id}/plans': {
    summary: "List a merchant's plans, oldest first",
    tag: 'Merchants',
    answers: { 200: ['One page; follow next_cursor for the next', page('plans', ex.plan)] },
    errors: listErrors('Merchant'),
  },
  'GET /merchants/{id}/subscriptions': {
    summary: "List a merchant's subscriptions (filters: status, plan_id, due_before)",
    tag: 'Merchants',
    description: 'Ordered by created_at; with due_before, by next_billing_date (the work list of due subscriptions).',
    answers: { 200: ['One page; follow next_cursor for the next', page('subscriptions', ex.subscription)] },
    errors: [
      ...listErrors('Merchant'),
      ['INVALID_INPUT', ex.errors.invalid('due_before', 'due_before must be an ISO 8601 date-time')],
    ],
  },
  'POST /plans': {
    summary: 'Create a plan',
    tag: 'Plans',
    request: ex.requests.createPlan,
    answers: { 201: ['Created', { message: 'Plan created successfully', plan: ex.plan }] },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('name', 'name cannot be empty')],
      ['INVALID_INPUT', ex.errors.unsafeNumber],
      ['NOT_FOUND', ex.errors.notFound('Merchant')],
      ['DATABASE', ex.errors.foreignKey],
      ...bodyErrors,
    ],
  },
  'GET /plans/{id}': {
    summary: "Read a plan with its merchant's wallet (for a checkout; no key needed)",
    tag: 'Plans',
    answers: {
      200: [
        'The plan',
        {
          plan: {
            ...ex.plan,
            merchant: { id: ex.merchant.id, name: ex.merchant.name, wallet_address: ex.merchant.wallet_address },
          },
        },
      ],
    },
    errors: readErrors('Plan'),
  },
  'GET /plans/{id}/subscriptions': {
    summary: "List a plan's subscriptions (filters: status, due_before)",
    tag: 'Plans',
    answers: { 200: ['One page; follow next_cursor for the next', page('subscriptions', ex.subscription)] },
    errors: listErrors('Plan'),
  },
  'POST /subscriptions': {
    summary: 'Record a subscriber (after approve and create_vault on-chain); the first cycle is due at once',
    tag: 'Subscriptions',
    request: ex.requests.createSubscription,
    answers: { 201: ['Created', { message: 'Subscription created', subscription: ex.subscription }] },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('plan_id', 'plan_id must be a valid UUID')],
      ['NOT_FOUND', ex.errors.notFound('Plan')],
      ['CONFLICT', { error: 'Plan is archived: it takes no new subscriptions', code: 'plan_archived' }],
      ...bodyErrors,
    ],
  },
  'GET /subscriptions/{id}': {
    summary: 'Read a subscription',
    tag: 'Subscriptions',
    description: STATUS_TABLE,
    answers: { 200: ['The subscription with its latest health check', { subscription: ex.subscriptionDetail }] },
    errors: readErrors('Subscription'),
  },
  'POST /plans/{id}/archive': {
    summary: 'Archive a plan: no new subscriptions (409 plan_archived), existing ones go on; a new price is a new plan',
    tag: 'Plans',
    request: {},
    answers: {
      200: ['The plan with its archived_at', { plan: { ...ex.plan, archived_at: '2026-12-01T00:00:00.000Z' } }],
    },
    errors: [...readErrors('Plan'), ...bodyErrors],
  },
  'POST /subscriptions/{id}/cancel': {
    summary:
      'Cancel now, or at the end of the period paid for (`at_period_end`): a canceled subscription is never pulled again',
    tag: 'Subscriptions',
    request: { at_period_end: true },
    answers: {
      200: [
        'The subscription (with `cancel_at` when at period end)',
        { subscription: { ...ex.subscriptionDetail, cancel_at: ex.subscription.next_billing_date } },
      ],
    },
    errors: [...readErrors('Subscription'), ['CONFLICT', ex.errors.canceled], ...bodyErrors],
  },
  'POST /subscriptions/{id}/pause': {
    summary: 'Pause: never pulled while paused; paused cycles are not collected later',
    tag: 'Subscriptions',
    request: {},
    answers: { 200: ['The subscription, paused', { subscription: { ...ex.subscriptionDetail, status: 'paused' } }] },
    errors: [...readErrors('Subscription'), ['CONFLICT', ex.errors.canceled], ...bodyErrors],
  },
  'POST /subscriptions/{id}/resume': {
    summary: 'Resume: the status held when paused comes back, next_billing_date is kept',
    tag: 'Subscriptions',
    request: {},
    answers: { 200: ['The subscription', { subscription: ex.subscriptionDetail }] },
    errors: [...readErrors('Subscription'), ['CONFLICT', ex.errors.canceled], ...bodyErrors],
  },
  'GET /merchants/{id}/pulls': {
    summary: "A merchant's pulls across its subscriptions (filters: from, to, status), oldest first",
    tag: 'Pulls',
    description:
      "For the merchant's books (the dashboard's CSV export): every attempt with its transaction hash, `from` inclusive and `to` exclusive on `created_at`.",
    answers: { 200: ['One page; follow next_cursor for the next', page('pulls', ex.pull)] },
    errors: [
      ...listErrors('Merchant'),
      ['INVALID_INPUT', ex.errors.invalid('from', 'from must be an ISO 8601 date-time')],
      ['VALIDATION', ex.errors.invalid('to', 'to must be later than from')],
    ],
  },
  'GET /merchants/{id}/pulls/daily-totals': {
    summary: "What a merchant's confirmed pulls collected per UTC day and token (the revenue chart)",
    tag: 'Pulls',
    description:
      "Window `from` (default 30 days before `to`) to `to` (default now), at most 366 days, on the pulls' `created_at`. Days without a confirmed pull are absent. `amount` sums what the token's transfer event says moved.",
    answers: {
      200: [
        'The totals',
        {
          from: '2026-10-22T16:32:01.020Z',
          to: '2026-11-21T16:32:01.020Z',
          days: [{ date: '2026-11-21', token_contract_id: ex.pull.token_contract_id, amount: 100000000, pulls: 1 }],
        },
      ],
    },
    errors: [...readErrors('Merchant'), ['VALIDATION', ex.errors.invalid('from', 'the window is at most 366 days')]],
  },
  'POST /checkout/{plan_id}/subscriptions': {
    summary:
      'The hosted checkout records its subscriber, once the ledger shows the vault and allowance (no key needed)',
    tag: 'Subscriptions',
    description:
      "Before the row is created the ledger is read: a vault of this subscriber for the plan's merchant with exactly the plan's token, amount and interval, and a live allowance to the vault contract of at least one cycle. Otherwise 400 with `code` (`vault_missing`, `vault_terms_mismatch`, `insufficient_allowance`, `allowance_expired`, `allowance_revoked`) and nothing is written. `POST /subscriptions` keeps the spec's behaviour.",
    request: { customer_wallet_address: ex.requests.createSubscription.customer_wallet_address },
    answers: { 201: ['Created', { message: 'Subscription created', subscription: ex.subscription }] },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('plan_id parameter', 'plan_id parameter must be a valid UUID')],
      [
        'VALIDATION',
        {
          error:
            'Checkout not confirmed on chain: Vault does not exist: no vault entry for this subscriber and merchant',
          code: 'vault_missing',
        },
      ],
      ['NOT_FOUND', ex.errors.notFound('Plan')],
      ['CONFLICT', { error: 'Plan is archived: it takes no new subscriptions', code: 'plan_archived' }],
      ['CONTRACT_ID_MISSING', { error: 'CONTRACT_ID is not configured' }],
      ['CHAIN_UNAVAILABLE', { error: 'Soroban RPC unavailable: timed out', code: 'chain_unavailable' }],
      ...bodyErrors,
    ],
  },
  'POST /subscriber/subscriptions': {
    summary: "A subscriber's own subscriptions with this service's merchants, proven by a wallet signature (no key)",
    tag: 'Subscriptions',
    description:
      "For the /manage page. The wallet signs (SEP-53, as Freighter signMessage does) the text `Show my subscriptions\\nwallet: <wallet>\\nat: <signed_at>`; the signature must be at most 300 seconds old. Read only: renewing or stopping the allowance is the subscriber's own `approve` on chain (an allowance set to 0 ends the subscription as canceled at its next billing attempt).",
    request: {
      wallet: ex.requests.createSubscription.customer_wallet_address,
      signed_at: '2026-11-21T16:32:01.020Z',
      signature: 'q1Vh…base64…Ag==',
    },
    answers: {
      200: [
        'Every subscription of the wallet',
        {
          subscriptions: [
            {
              ...ex.subscription,
              plan: {
                name: 'Gold monthly',
                token_amount: 100000000,
                interval_seconds: 2592000,
                token_contract_id: ex.pull.token_contract_id,
              },
              merchant: {
                name: 'Acme Ltd',
                wallet_address: 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H',
              },
            },
          ],
        },
      ],
    },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('wallet', 'must be a valid Stellar Ed25519 public address')],
      ['VALIDATION', ex.errors.invalid('signature', "signature is not the wallet's signature of the message")],
      ['VALIDATION', ex.errors.invalid('signed_at', 'the message must be signed within 300 seconds of the request')],
      ...bodyErrors,
    ],
  },
  'GET /api-keys/current': {
    summary: "Who the request's key is: its merchant (the dashboard signs in with a key alone)",
    tag: 'Credentials',
    description: 'A key is needed in both modes. The operator key answers `actor: operator` with no merchant.',
    answers: { 200: ['The key and its merchant', { actor: 'merchant', merchant: ex.merchant, key_id: ex.key.id }] },
    errors: [['NOT_FOUND', ex.errors.notFound('Merchant')], DB, DB_DOWN, NO_DB],
  },
  'GET /subscriptions/{id}/pulls': {
    summary: "A subscription's pull attempts, newest first",
    tag: 'Pulls',
    answers: { 200: ['Every attempt', { pulls: [ex.pull] }] },
    errors: readErrors('Subscription'),
  },
  'POST /trigger-pull': {
    summary: 'Collect one billing cycle: pull_funds(user, merchant) on the vault contract',
    tag: 'Pulls',
    description:
      "Signed with merchant_secret when sent (the spec's flow); a caller with an API key may omit it to sign with the merchant's stored signing key.",
    request: ex.requests.triggerPull,
    answers: {
      200: ['Confirmed on-chain; the next billing date is scheduled', ex.pulled],
      202: ['Submitted, not confirmed within TX_POLL_TIMEOUT_MS; resolved later by the reconciler', ex.pullPending],
      502: ['Included in a ledger but failed; the subscription is past_due', ex.pullFailed],
    },
    errors: [
      ['INVALID_INPUT', ex.errors.invalid('merchant_secret', 'merchant_secret is required')],
      ['INVALID_SECRET', ex.errors.invalidSecret],
      ['VALIDATION', ex.errors.noSigningKey],
      ['SECRET_MISMATCH', ex.errors.secretMismatch],
      ['SIGNING_KEY_STORE', ex.errors.signingKeyStore],
      ['NOT_FOUND', ex.errors.notFound('Subscription')],
      ['PULL_REJECTED', ex.errors.pullRejected],
      ['PULL_REJECTED', ex.errors.vaultTermsMismatch],
      ['CONTRACT_ID_MISSING', ex.errors.contractMissing],
      ['CHAIN_UNAVAILABLE', ex.errors.chainUnavailable],
      ...bodyErrors,
    ],
  },
  'POST /subscriptions/{id}/pulls/prepare': {
    summary: "Client-side signing, step 1: the merchant's unsigned authorisation of this cycle's pull_funds",
    tag: 'Pulls',
    description:
      "Simulates pull_funds with a channel account as the source and returns the merchant's authorisation entry's HashIdPreimage and its SHA-256. The prepared pull is the subscription's attempt in flight until submitted or expired (PREPARED_PULL_TTL_SECONDS, default 300): /trigger-pull and another prepare answer 409 pull_prepared meanwhile. Needs channel accounts (`billing channels create`).",
    request: {},
    answers: { 201: ['Prepared: sign `hash` with the merchant wallet and submit', ex.preparedPull] },
    errors: [
      ['CONFLICT', ex.errors.pullPrepared],
      ['CONFLICT', ex.errors.canceled],
      ['PULL_REJECTED', ex.errors.pullRejected],
      ['CONTRACT_ID_MISSING', ex.errors.contractMissing],
      ['CHAIN_UNAVAILABLE', ex.errors.chainUnavailable],
      ...readErrors('Subscription'),
      ...bodyErrors,
    ],
  },
  'POST /pulls/{id}/submit': {
    summary:
      "Client-side signing, step 2: the merchant's signature in; built, sent through a channel, answered as /trigger-pull",
    tag: 'Pulls',
    description:
      "The signature is checked against the merchant's wallet before anything is sent (400 signature_invalid). The service builds the transaction with a channel account as its source (fee-bumped by FEE_SOURCE_SECRET when set) and waits for the outcome as /trigger-pull does.",
    request: ex.requests.submitPull,
    answers: {
      200: ['Confirmed on-chain; the next billing date is scheduled', ex.pulled],
      202: ['Submitted, not confirmed within TX_POLL_TIMEOUT_MS; resolved later by the reconciler', ex.pullPending],
      502: ['Included in a ledger but failed; the subscription is past_due', ex.pullFailed],
    },
    errors: [
      ['VALIDATION', ex.errors.signatureInvalid],
      ['CONFLICT', ex.errors.pullExpired],
      ['NOT_FOUND', ex.errors.notFound('Pull')],
      ['PULL_REJECTED', ex.errors.pullRejected],
      ['CHAIN_UNAVAILABLE', ex.errors.chainUnavailable],
      ...bodyErrors,
    ],
  },
};
