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
  /** The RPC could not be reached or answered garbage; message passed through. */
  | 'CHAIN_UNAVAILABLE'
  /** The database driver failed (constraint, connection); message passed through as the spec asks. */
  | 'DATABASE';

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

export const notFound = (what: 'Plan' | 'Subscription' | 'Merchant') => new BillingError('NOT_FOUND', `${what} not found`);

export const DB_NOT_INITIALIZED_MESSAGE = 'Database client not initialized';
