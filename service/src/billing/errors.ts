// The domain's failures as a closed set of codes. Verbs throw BillingError; http/errors.ts owns
// the one code -> status table, so a code never means two statuses in two places.

export type BillingErrorCode =
  /** Input breaks a rule the HTTP schema could not see. Message is the full client text. */
  | 'VALIDATION'
  /** A well-formed id that matches nothing (or a soft-deleted merchant). Message names the thing. */
  | 'NOT_FOUND'
  /** merchant_secret is not a Stellar secret key at all (format). Not for a valid key of the wrong account. */
  | 'INVALID_SECRET'
  /** merchant_secret is a valid key but not the plan owner's wallet. */
  | 'SECRET_MISMATCH'
  /** CONTRACT_ID is unset: a configuration state, reported only when a pull needs it. */
  | 'CONTRACT_ID_MISSING'
  /** No database configured (production without DATABASE_URL). */
  | 'DB_NOT_INITIALIZED'
  /** The chain refused the pull before submission or at submission; `details.code` says why. */
  | 'PULL_REJECTED'
  /** The subscription's status forbids the request (canceled, paused); `details.code` says which. */
  | 'CONFLICT'
  /** The RPC could not be reached or answered garbage; message passed through. */
  | 'CHAIN_UNAVAILABLE'
  /** The database server refused a statement (constraint, …); its message passed through as the spec asks. */
  | 'DATABASE'
  /** The connection itself failed (refused, timed out, authentication): answered without the driver's words, which name hosts and users. */
  | 'DATABASE_UNAVAILABLE'
  /** The route needs an API key and the request has none (`code: api_key_required`). */
  | 'API_KEY_REQUIRED'
  /** The request's key is unknown, revoked, of a deleted merchant, or not a Bearer key (`code: api_key_invalid`). */
  | 'API_KEY_INVALID'
  /** A merchant key on a route that only the operator key may use (`code: operator_only`). Not for another merchant's object: that is NOT_FOUND. */
  | 'OPERATOR_ONLY'
  /** Stored signing keys cannot be sealed or opened: SIGNING_KEY_ENCRYPTION_KEY is unset, or lacks the key a ciphertext names. */
  | 'SIGNING_KEY_STORE'
  /** The Idempotency-Key was first used with another method, path or body (`code: idempotency_key_reused`). */
  | 'IDEMPOTENCY_MISMATCH'
  /** The first request with this Idempotency-Key is still running (`code: idempotency_key_in_use`); retry later. */
  | 'IDEMPOTENCY_IN_PROGRESS';

export class BillingError extends Error {
  override name = 'BillingError';
  readonly code: BillingErrorCode;
  /** Extra fields merged into the HTTP error body, e.g. `{ code: 'too_early', next_billing_date }`. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: BillingErrorCode, message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.details = details;
  }
}

export const notFound = (
  what: 'Plan' | 'Subscription' | 'Merchant' | 'API key' | 'Signing key' | 'Event' | 'Webhook endpoint',
) => new BillingError('NOT_FOUND', `${what} not found`);

export const DB_NOT_INITIALIZED_MESSAGE = 'Database client not initialized';
export const DATABASE_UNAVAILABLE_MESSAGE = 'Database unavailable';
