// What the pull verbs need from storage. storage/repos/pulls-repo.ts implements it; the outcome
// updates are conditional on the attempt still being pending, so however many requests or
// reconcilers observe one transaction, exactly one of them applies its effect.
import type { DunningStep } from '../collection/dunning.ts';
import type { Subscription } from '../model.ts';
import type { FinalStatus, SubscriptionStatus } from '../subscriptions/status-machine.ts';

/** A subscription after a pull changed it, and the status it had before. */
export interface SubscriptionChange {
  subscription: Subscription;
  previousStatus: SubscriptionStatus;
}
export interface PullContext {
  subscriptionId: string;
  customerWallet: string;
  subscriptionStatus: SubscriptionStatus;
  /** Cancel at period end: the subscription is canceled from this instant. */
  cancelAt: Date | null;
  /** The plan's dunning: retry delays after each failed try, and the status after the last. */
  retryScheduleSeconds: number[];
  finalStatus: FinalStatus;
  /** The collector's failed tries in the current cycle. */
  dunningTries: number;
  nextBillingDate: Date;
  planId: string;
  tokenAmount: string;
  intervalSeconds: number;
  /** The plan's token (C…), or null when it names none. */
  tokenContractId: string | null;
  merchantId: string;
  merchantWallet: string;
  merchantDeleted: boolean;
  /** A pull of this subscription was confirmed before. */
  collectedBefore: boolean;
  /** The latest time bound of any attempt recorded for this subscription (a rebuild goes past it). */
  lastMaxTime?: Date | null;
}

/** skipped: a try of the collector that sent nothing (pre-flight or simulation refused it). */
export type PullStatus = 'pending' | 'confirmed' | 'failed' | 'expired' | 'rejected' | 'skipped';

/** Who tried: a caller of /trigger-pull, or the collector (whose failures are dunning tries). */
export type PullOrigin = 'manual' | 'collector';

export interface PullAttempt {
  id: string;
  subscription_id: string;
  merchant_id: string;
  amount: string;
  tx_hash: string;
  source_account: string;
  max_time: Date;
  status: PullStatus;
  ledger: number | null;
  error: string | null;
  /** What the token's transfer event says moved (confirmed pulls). */
  transferred_amount: string | null;
  token_contract_id: string | null;
  fee_charged: string | null;
  inner_tx_hash: string | null;
  /** Set when a confirmation differs from the plan. */
  discrepancy: string | null;
  envelope_xdr: string;
  min_ledger: number | null;
  origin: PullOrigin;
  /** The cause's code for a refused or skipped try (the 500's `code`). */
  code: string | null;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
}

/** A row of the pull history: a skipped try has no transaction. */
export type PullRecord = Omit<PullAttempt, 'tx_hash' | 'source_account' | 'max_time' | 'envelope_xdr'> & {
  tx_hash: string | null;
};

/** A try of the collector that sent nothing, with its cause. */
export type SkippedTry = Pick<PullAttempt, 'subscription_id' | 'merchant_id' | 'amount'> & {
  code: string;
  error: string;
  now: Date;
};

export type NewAttempt = Pick<
  PullAttempt,
  | 'subscription_id'
  | 'merchant_id'
  | 'amount'
  | 'tx_hash'
  | 'source_account'
  | 'max_time'
  | 'envelope_xdr'
  | 'min_ledger'
  | 'origin'
> & {
  now: Date;
};

/** How an attempt ended; the confirmation fields only for `confirmed`. */
export interface AttemptResolution {
  status: Exclude<PullStatus, 'pending' | 'skipped'>;
  /** The cause's code (a rejection at submission). */
  code?: string;
  ledger?: number;
  error?: string;
  transferred_amount?: string;
  token_contract_id?: string;
  fee_charged?: string;
  inner_tx_hash?: string;
  discrepancy?: string;
  at: Date;
}

export interface PullsRepo {
  /** Subscription + plan terms + plan owner (deleted or not) in one read. */
  loadContext(subscriptionId: string): Promise<PullContext | undefined>;
  findPending(subscriptionId: string): Promise<PullAttempt | undefined>;
  /** undefined when another attempt for this subscription is already pending (unique index). */
  insertPending(attempt: NewAttempt): Promise<PullAttempt | undefined>;
  /**
   * Moves an attempt whose status is one of `from` (default: pending) to its final status;
   * undefined when it was in none of them.
   */
  resolve(id: string, outcome: AttemptResolution, from?: readonly PullStatus[]): Promise<PullAttempt | undefined>;
  /** A confirmed pull: the next cycle is scheduled and a past_due subscription is active again. */
  scheduleNext(subscriptionId: string, nextBillingDate: Date, at: Date): Promise<SubscriptionChange | undefined>;
  markPastDue(subscriptionId: string, at: Date): Promise<SubscriptionChange | undefined>;
  /** A failed try of the collector: the subscription's dunning moves one step (billing/collection/dunning.ts). */
  applyDunning(subscriptionId: string, step: DunningStep, at: Date): Promise<SubscriptionChange | undefined>;
  listPending(limit: number): Promise<PullAttempt[]>;
  listForSubscription(subscriptionId: string, limit: number): Promise<PullRecord[]>;
  /** Records a try of the collector that sent nothing. */
  insertSkipped(t: SkippedTry): Promise<void>;
}
