// Example bodies for the OpenAPI document: one coherent story (Acme sells Pro monthly to one
// subscriber) so a reader can follow ids from one operation to the next.
import { invalidInput } from '../../schemas/invalid-input.ts';

const MERCHANT_ID = 'f490f956-515f-4ab7-a2e4-e804a9345997';
const PLAN_ID = '49518b77-7b5e-4f9b-8fda-ecd6c06606a4';
const SUBSCRIPTION_ID = '292ab866-ed28-4aeb-aac5-7d899311c323';
const MERCHANT_WALLET = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const CUSTOMER_WALLET = 'GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ';
// USDC's Stellar Asset Contract on testnet.
const USDC = 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA';
const TX_HASH = '3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889';

export const merchant = {
  id: MERCHANT_ID,
  name: 'Acme Streaming',
  wallet_address: MERCHANT_WALLET,
  created_at: '2026-11-21T16:31:58.434Z',
};
export const plan = {
  id: PLAN_ID,
  merchant_id: MERCHANT_ID,
  name: 'Pro monthly',
  token_amount: 100000000,
  interval_seconds: 2592000,
  token_contract_id: USDC,
  retry_schedule_seconds: [86400, 259200, 432000, 604800],
  final_status: 'past_due',
  archived_at: null,
  created_at: '2026-11-21T16:31:58.717Z',
};
export const subscription = {
  id: SUBSCRIPTION_ID,
  plan_id: PLAN_ID,
  customer_wallet_address: CUSTOMER_WALLET,
  status: 'active',
  next_billing_date: '2026-12-21T16:32:04.112Z',
};
/** GET /subscriptions/{id} shows the latest health check beside the spec's fields. */
export const subscriptionDetail = {
  ...subscription,
  health: {
    status: 'allowance_expiring',
    checked_at: '2026-12-18T16:32:04.112Z',
    detail: 'the allowance expires at ledger 612345, about 2026-12-20T09:10:00.000Z, before the next billing date',
  },
};

export const pull = {
  id: 'b1e0a6c2-3f4d-4e8a-9c1b-2d3e4f5a6b7c',
  subscription_id: SUBSCRIPTION_ID,
  amount: 100000000,
  tx_hash: TX_HASH,
  status: 'confirmed',
  ledger: 51234,
  error: null,
  origin: 'collector',
  code: null,
  transferred_amount: 100000000,
  token_contract_id: USDC,
  fee_charged: 103245,
  inner_tx_hash: null,
  discrepancy: null,
  created_at: '2026-11-21T16:32:01.020Z',
  resolved_at: '2026-11-21T16:32:04.112Z',
};
export const cursor =
  'WyJjcmVhdGVkIiwiMjAyNi0xMS0yMVQxNjozMTo1OC43MTcwMDBaIiwiNDk1MThiNzctN2I1ZS00ZjliLThmZGEtZWNkNmMwNjYwNmE0Il0.vG5cJ1mI2kqv3bJ0s2W8yA';
/** Illustrative only: real keys are 256 random bits, shown once. */
export const apiKey = 'bk_8fJ2kQm1Xw3Zr7Tn0VbYs5Lc9PdHa4Ue6GiOq2MfRtK';
export const key = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  prefix: 'bk_8fJ2kQm1',
  label: 'billing cron',
  created_at: '2026-11-21T16:31:58.434Z',
  last_used_at: '2026-11-21T17:02:11.120Z',
};
export const signingKey = { public_key: MERCHANT_WALLET, created_at: '2026-11-21T16:40:02.551Z' };

export const requests = {
  createMerchant: { name: 'Acme Streaming', wallet_address: MERCHANT_WALLET },
  createPlan: { merchant_id: MERCHANT_ID, name: 'Pro monthly', token_amount: '100000000', interval_seconds: 2592000 },
  createSubscription: { plan_id: PLAN_ID, customer_wallet_address: CUSTOMER_WALLET },
  triggerPull: {
    subscription_id: SUBSCRIPTION_ID,
    merchant_secret: "S… (the merchant wallet's secret seed; never logged)",
  },
  submitPull: { signature: 'base64 of the 64-byte ed25519 signature of `hash` by the merchant wallet' },
  createApiKey: { label: 'billing cron' },
  setSigningKey: { secret: "S… (the merchant wallet's secret seed; stored encrypted, never returned)" },
  createEndpoint: {
    url: 'https://shop.example.com/webhooks/billing',
    event_types: ['pull.succeeded', 'pull.failed', 'subscription.past_due'],
  },
};

export const pulled = { message: 'Successfully pulled funds on-chain!', txHash: TX_HASH };
export const pullPending = { message: 'Transaction submitted but not yet confirmed', txHash: TX_HASH };
export const preparedPull = {
  pull: { id: '6f1c2a4e-8d3b-4f7a-9c21-5e0b7d9a3f10', status: 'prepared', expires_at: '2026-11-21T16:37:04.112Z' },
  preimage_xdr: 'AAAACs7Ctxg… (base64 HashIdPreimage ENVELOPE_TYPE_SOROBAN_AUTHORIZATION_WITH_ADDRESS)',
  hash: 'e3b4f1c07a5d2e9b8c6f4a1d0e7b3c5a9f2d8e6b4c1a7f3e5d9b2c8a6f4e1d07',
  signature_expiration_ledger: 123456,
};
export const pullFailed = { error: 'Transaction failed on-chain', txHash: TX_HASH };

/** Error bodies, by the situation that produces them. */
export const errors = {
  invalid: (field: string, reason: string) => ({ error: invalidInput(field, reason) }),
  notFound: (what: string) => ({ error: `${what} not found` }),
  tooLarge: { error: 'Request body is too large' },
  mediaType: {
    error: 'Unsupported Media Type: application/x-www-form-urlencoded: send Content-Type: application/json',
  },
  database: {
    error: 'duplicate key value violates unique constraint "subscriptions_customer_wallet_address_plan_id_key"',
  },
  foreignKey: { error: 'insert or update on table "plans" violates foreign key constraint "plans_merchant_id_fkey"' },
  noDatabase: { error: 'Database client not initialized' },
  databaseUnavailable: { error: 'Database unavailable' },
  apiKeyRequired: { error: 'An API key is required: send Authorization: Bearer <key>', code: 'api_key_required' },
  apiKeyInvalid: { error: 'The API key is unknown or revoked', code: 'api_key_invalid' },
  operatorOnly: { error: 'Only the operator key may do this', code: 'operator_only' },
  signingKeyStore: {
    error: 'Signing keys cannot be stored or used: SIGNING_KEY_ENCRYPTION_KEY is not set on the server',
  },
  noSigningKey: {
    error:
      'No merchant_secret in the request and no signing key stored for this merchant: send merchant_secret, or store the key with PUT /merchants/{id}/signing-key',
  },
  wrongWallet: {
    error:
      "Invalid input on secret: secret is not the key of the merchant's wallet GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
  },
  unsafeNumber: {
    error:
      'Invalid input on token_amount: 12345678901234567890 cannot be held exactly by a JSON number; send it as a numeric string ("12345678901234567890")',
  },
  invalidSecret: { error: 'Invalid merchant_secret: not a valid Stellar secret key' },
  secretMismatch: { error: 'merchant_secret does not match the wallet of the plan owner', code: 'secret_mismatch' },
  contractMissing: { error: 'contract identifier not set in the environment file' },
  pullRejected: {
    error: 'Too early to pull funds: next billing date is 2026-12-21T16:32:04.112Z',
    code: 'too_early',
    next_billing_date: '2026-12-21T16:32:04.112Z',
  },
  canceled: { error: 'Subscription is canceled', code: 'subscription_canceled' },
  pullPrepared: { error: "A prepared pull awaits the merchant's signature", code: 'pull_prepared' },
  pullExpired: { error: 'The prepared pull expired before it was signed: prepare it again', code: 'pull_expired' },
  signatureInvalid: {
    error: "Invalid input on signature: not an ed25519 signature of the prepared hash by the merchant's wallet",
    code: 'signature_invalid',
  },
  paused: { error: 'Subscription is paused', code: 'subscription_paused' },
  chainUnavailable: {
    error: 'Soroban RPC unavailable: simulateTransaction: no answer within 10000 ms',
    code: 'chain_unavailable',
  },
  vaultTermsMismatch: {
    error: 'Vault terms do not match the plan: amount_per_interval is 1 in the vault, 100000000 in the plan',
    code: 'vault_terms_mismatch',
  },
  rateLimited: { error: 'Rate limit exceeded, retry in 1 minute' },
  webhookSecretStore: {
    error: 'Webhook secrets cannot be stored: SIGNING_KEY_ENCRYPTION_KEY is not set on the server',
  },
  idempotencyInUse: {
    error: 'A request with this Idempotency-Key is still being processed; retry after it has answered',
    code: 'idempotency_key_in_use',
  },
  idempotencyReused: {
    error:
      'Keys for idempotent requests can only be used with the same method, path and parameters they were first used with',
    code: 'idempotency_key_reused',
  },
};

export const event = {
  id: '5f0c1e7a-2b8d-4c3e-9a1f-6d7e8f901234',
  type: 'pull.succeeded',
  created_at: '2026-11-21T16:32:04.113Z',
  merchant_id: MERCHANT_ID,
  actor: { type: 'api_key', id: '1573f148-8c1d-4b7e-a0f2-3e4d5c6b7a89' },
  data: { object: pull },
};
export const endpoint = {
  id: '8d2f4a6b-1c3e-4f5a-9b7c-0d1e2f3a4b5c',
  url: 'https://shop.example.com/webhooks/billing',
  event_types: ['pull.succeeded', 'pull.failed', 'subscription.past_due'],
  created_at: '2026-11-21T16:40:00.000Z',
  disabled_at: null,
  disabled_reason: null,
  previous_secret_expires_at: null,
};
/** Illustrative only: real secrets are 32 random bytes, shown once. */
export const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3xS5bAGQ6ZI=';
export const delivery = {
  id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  endpoint_id: endpoint.id,
  status: 'delivered',
  attempts: 2,
  next_attempt_at: null,
  last_error: null,
  created_at: '2026-11-21T16:32:04.113Z',
  delivered_at: '2026-11-21T16:32:11.402Z',
  log: [
    {
      attempted_at: '2026-11-21T16:32:04.250Z',
      response_status: 503,
      error: 'HTTP 503',
      duration_ms: 41,
      delivered: false,
    },
    { attempted_at: '2026-11-21T16:32:11.380Z', response_status: 200, error: null, duration_ms: 22, delivered: true },
  ],
};
