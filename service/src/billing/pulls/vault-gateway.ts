// The port through which billing reaches the vault contract. The real implementation lives in
// src/chain (the only code that knows the Stellar SDK); billing sees plain data and these errors.

/** A merchant's signing key, parsed from merchant_secret. Opaque: it exposes only the public key. */
export interface MerchantKey {
  readonly publicKey: string;
}

/**
 * The merchant's authorisation signed elsewhere (client-side signing): the unsigned auth entry the
 * service prepared and the merchant's ed25519 signature of its preimage's hash. Only a channel
 * account can carry it (the merchant is not the transaction source).
 */
export interface DetachedAuthorization extends MerchantKey {
  readonly entryXdr: string;
  readonly signatureExpirationLedger: number;
  readonly signature: Uint8Array;
}

export const isDetached = (key: MerchantKey): key is DetachedAuthorization => 'entryXdr' in key;

/** The merchant's authorisation of one pull, to be signed by the merchant itself. */
export interface AuthorizationRequest {
  /** The unsigned SorobanAuthorizationEntry (base64 XDR), its expiration ledger set. */
  entryXdr: string;
  /** base64 HashIdPreimage the merchant signs (the SHA-256 of it). */
  preimageXdr: string;
  /** hex SHA-256 of the preimage. */
  hash: string;
  signatureExpirationLedger: number;
}

/** The vault's terms as the subscriber set them on-chain with create_vault. */
export interface VaultTerms {
  /** The token contract (C…) the vault pulls. */
  token: string;
  amountPerInterval: bigint;
  intervalSeconds: bigint;
  /** Ledger time (unix s) of the last pull; 0 before the first. */
  lastPullTimestamp: bigint;
}

/** A pull transaction built, simulated and signed, not yet sent. */
export interface SignedPull {
  hash: string;
  envelopeXdr: string;
  /** The transaction's time bound (unix seconds): it can never be included after this. */
  maxTime: number;
  /** Source account and sequence number the transaction consumes when included. */
  source: string;
  sequence: string;
  /** The latest ledger when it was simulated: no ledger up to this one can include it. */
  minLedger: number;
  /** The inclusion fee it bids, stroops (the resource fee comes on top). */
  inclusionFee: string;
  /** Set when a channel account is the source: the lease to give back (channels-port.ts). */
  channel?: { id: string; holder: string };
  /** The inner transaction's hash when `hash` is a fee-bump envelope's. */
  innerHash?: string;
}

export type ChainTxStatus = 'SUCCESS' | 'FAILED' | 'NOT_FOUND';

/** What moved, read from the token's `transfer` event in the transaction's meta. */
export interface Transfer {
  /** Raw token units, decimal text. */
  amount: string;
  /** The token contract (C…) that emitted the event. */
  token: string;
}

export interface TxObservation {
  status: ChainTxStatus;
  /** Ledger that included the transaction (SUCCESS / FAILED). */
  ledger?: number;
  latestLedger: number;
  /** Close time of the latest ledger, unix seconds. */
  latestLedgerCloseTime: number;
  /** The oldest ledger the RPC still remembers: NOT_FOUND says nothing about older ones. */
  oldestLedger: number;
  /** SUCCESS only: the subscriber → merchant transfer, when the meta shows one. */
  transfer?: Transfer;
  /** SUCCESS / FAILED: fee charged to the fee source, stroops (decimal text). */
  feeCharged?: string;
  /** For a fee-bump envelope: the inner transaction's hash. */
  innerTxHash?: string;
}

/**
 * What the network shows about an attempt whose transaction the RPC no longer remembers:
 * `landed` when the vault was pulled at or after the attempt, `not_landed` when it provably was
 * not, `unknown` otherwise (never a reason to charge again).
 */
export type ForgottenOutcome = 'landed' | 'not_landed' | 'unknown';

/** Why a pull could not be submitted; `code` is the merchant-facing cause. Stable: never renamed. */
export const PULL_REJECTION_CODES = [
  'too_early',
  'vault_missing',
  'vault_terms_mismatch',
  'insufficient_allowance',
  'allowance_expired',
  'allowance_revoked',
  'insufficient_balance',
  'merchant_trustline_missing',
  'merchant_not_authorized',
  'merchant_over_limit',
  'simulation_failed',
  'submission_failed',
  'chain_unavailable',
  'chain_busy',
  'fee_too_high',
] as const;
export type PullRejectionCode = (typeof PULL_REJECTION_CODES)[number];

export class PullRejection extends Error {
  readonly code: PullRejectionCode;
  /** False when the transaction may have reached the network anyway (transport error on send). */
  readonly definitelyNotSent: boolean;
  /**
   * The network refused this envelope but a new one may pass: a stale sequence number (txBAD_SEQ),
   * a bid it would not take (TRY_AGAIN_LATER, txINSUFFICIENT_FEE), a time bound too close (txTOO_LATE).
   */
  readonly rebuild: boolean;
  /** The subscriber left: it revoked the allowance or cancelled its vault (dunning cancels). */
  readonly subscriberLeft: boolean;
  constructor(
    code: PullRejectionCode,
    message: string,
    options: { definitelyNotSent?: boolean; rebuild?: boolean; subscriberLeft?: boolean } = {},
  ) {
    super(message);
    this.name = 'PullRejection';
    this.code = code;
    this.definitelyNotSent = options.definitelyNotSent ?? true;
    this.rebuild = options.rebuild ?? false;
    this.subscriberLeft = options.subscriberLeft ?? false;
  }
}

/** The subscriber and the merchant of a pull: whose transfer to look for in its meta. */
export interface Parties {
  user: string;
  merchant: string;
}

/** What the ledger holds for a pull, read without a transaction (pre-flight, health). */
export interface Inspection {
  /** undefined: no vault entry for the pair. */
  vault: VaultTerms | undefined;
  /** The subscriber's allowance to the vault; null when no entry exists (only read when the vault does). */
  /** `revoked`: at 0 because the subscriber approved 0, not because it was spent down. */
  allowance?: { amount: bigint; liveUntilLedger: number; revoked: boolean } | null;
  /** When the vault is missing: the ledger of its subscriber's cancel_vault, if the RPC still has it. */
  vaultCancelledAtLedger?: number;
  /** The subscriber's balance of the vault's token; undefined when it could not be read. */
  balance?: bigint;
  latestLedger: number;
  /** Close time of the latest ledger, unix seconds. */
  ledgerTime: number;
}

export interface PreparePullInput {
  key: MerchantKey;
  user: string;
  contractId: string;
  /** This subscription was collected before: an allowance was live then (evidence of expiry). */
  collectedBefore: boolean;
  /**
   * Called with the vault's terms as soon as they are known (from a successful simulation, or
   * read after a failed one) and before anything is signed; throws a PullRejection to refuse.
   */
  acceptVault(vault: VaultTerms): void;
  /**
   * The time bound must be later than this (unix seconds): an envelope rebuilt within the same second
   * as a refused one would otherwise be byte-identical, and its hash is already recorded.
   */
  laterThan?: number;
}

export interface VaultGateway {
  /** null when the text is not a valid secret key. */
  parseSecret(secret: string): MerchantKey | null;
  /**
   * Runs fn while holding this process's queue for one source account: the network accepts
   * one queued transaction per source account, and pulls of one merchant share its sequence.
   * Throws PullRejection('chain_busy') when the queue is full or the wait too long.
   */
  serialize<T>(sourceAccount: string, fn: () => Promise<T>): Promise<T>;
  /** Builds, simulates (throws PullRejection with the established cause) and signs pull_funds. */
  preparePull(input: PreparePullInput): Promise<SignedPull>;
  /** A prepared pull that will never be sent: its channel lease (if any) is given back. */
  abandon?(pull: SignedPull): Promise<void>;
  /**
   * Client-side signing: simulates pull_funds with a channel as the source and returns the
   * merchant's unsigned authorisation, valid until `validForSeconds` of network time have passed.
   */
  prepareAuthorization?(
    input: Omit<PreparePullInput, 'key'> & { merchant: string; validForSeconds: number },
  ): Promise<AuthorizationRequest>;
  /** True when `signature` is `publicKey`'s ed25519 signature of the 32 bytes in hex `hash`. */
  verifySignature?(publicKey: string, hash: string, signature: Uint8Array): boolean;
  /** Channel accounts free and leased; undefined when the service has no channel store. */
  channelStatus?(): Promise<{ total: number; leased: number; exhaustedSince?: number; ledgerMs: number } | undefined>;
  /** Submits; resolves once the network has accepted the envelope (PENDING or DUPLICATE). */
  send(pull: SignedPull): Promise<void>;
  /** One look at the network; with `parties`, a SUCCESS carries their transfer. */
  observe(hash: string, parties?: Parties): Promise<TxObservation>;
  /** Polls until SUCCESS / FAILED, or until `deadline` (epoch ms) with the last NOT_FOUND. */
  waitForOutcome(hash: string, deadline: number, parties?: Parties): Promise<TxObservation>;
  /** Reads the vault, the allowance and the balance (no transaction); throws PullRejection('chain_unavailable'). */
  inspect(input: { user: string; merchant: string; contractId: string }): Promise<Inspection>;
  /** The network's time now as last observed (unix seconds), refreshed from the RPC when asked to. */
  networkNow(refresh?: boolean): Promise<number>;
  /** For an attempt older than the RPC's memory: establishes from the ledger whether it landed. */
  establishForgotten(input: {
    envelopeXdr: string;
    user: string;
    merchant: string;
    contractId: string;
  }): Promise<ForgottenOutcome>;
}
