// The port through which billing reaches the vault contract. The real implementation lives in
// src/chain (the only code that knows the Stellar SDK); billing sees plain data and these errors.

/** A merchant's signing key, parsed from merchant_secret. Opaque: it exposes only the public key. */
export interface MerchantKey {
  readonly publicKey: string;
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
}

export type ChainTxStatus = 'SUCCESS' | 'FAILED' | 'NOT_FOUND';

export interface TxObservation {
  status: ChainTxStatus;
  /** Ledger that included the transaction (SUCCESS / FAILED). */
  ledger?: number;
  latestLedger: number;
  /** Close time of the latest ledger, unix seconds. */
  latestLedgerCloseTime: number;
}

/** Why a pull could not be submitted; `code` is the merchant-facing cause. */
export type PullRejectionCode =
  | 'too_early'
  | 'vault_missing'
  | 'insufficient_allowance'
  | 'insufficient_balance'
  | 'simulation_failed'
  | 'submission_failed';

export class PullRejection extends Error {
  readonly code: PullRejectionCode;
  /** False when the transaction may have reached the network anyway (transport error on send). */
  readonly definitelyNotSent: boolean;
  /** The sequence number was stale (txBAD_SEQ): building again from a fresh one may succeed. */
  readonly staleSequence: boolean;
  constructor(
    code: PullRejectionCode,
    message: string,
    options: { definitelyNotSent?: boolean; staleSequence?: boolean } = {},
  ) {
    super(message);
    this.name = 'PullRejection';
    this.code = code;
    this.definitelyNotSent = options.definitelyNotSent ?? true;
    this.staleSequence = options.staleSequence ?? false;
  }
}

export interface VaultGateway {
  /** null when the text is not a valid secret key. */
  parseSecret(secret: string): MerchantKey | null;
  /**
   * Runs fn while holding this process's queue for one source account: the network accepts
   * one queued transaction per source account, and pulls of one merchant share its sequence.
   */
  serialize<T>(sourceAccount: string, fn: () => Promise<T>): Promise<T>;
  /** Builds, simulates (throws PullRejection with the established cause) and signs pull_funds. */
  preparePull(input: { key: MerchantKey; user: string; contractId: string }): Promise<SignedPull>;
  /** Submits; resolves once the network has accepted the envelope (PENDING or DUPLICATE). */
  send(pull: SignedPull): Promise<void>;
  /** One look at the network. */
  observe(hash: string): Promise<TxObservation>;
  /** Polls until SUCCESS / FAILED, or until `deadline` (epoch ms) with the last NOT_FOUND. */
  waitForOutcome(hash: string, deadline: number): Promise<TxObservation>;
}
