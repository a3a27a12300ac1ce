// What the network remembers about transactions and events, as getTransaction,
// getEvents and the control API read it back.
import type { xdr } from '@stellar/stellar-sdk';
import type { Resource } from './network-config.ts';

export type TxRecord = {
  /** The hash the RPC reports (the outer one for a fee bump). */
  hash: string;
  /** A fee-bump envelope (getTransaction's `feeBump`); found by its inner hash too. */
  feeBump: boolean;
  innerHash?: string;
  status: 'SUCCESS' | 'FAILED';
  ledger: number;
  createdAt: number;
  applicationOrder: number;
  envelopeXdr: string;
  resultXdr: string;
  resultMetaXdr: string;
  diagnosticEventsXdr: string[];
  contractEventsXdr: string[][];
  transactionEventsXdr: string[];
};

export type EventRecord = {
  ledger: number;
  ledgerClosedAt: string;
  contractId: string;
  id: string;
  operationIndex: number;
  transactionIndex: number;
  txHash: string;
  topic: string[];
  value: string;
};

/**
 * queued → success | failed (included); dropped (the drop fault); expired (its time or ledger bound
 * passed, or its sequence number was used, before inclusion); evicted (pushed out of a full queue by
 * a higher bid, or left out for 4 ledgers: TransactionQueue::shift); replaced (a fee bump of the
 * same sequence number replaced it by fee).
 */
export type SubmissionStatus = 'queued' | 'success' | 'failed' | 'dropped' | 'expired' | 'evicted' | 'replaced';

/** One transaction accepted by sendTransaction, as GET /control/transactions lists it. */
export type Submission = {
  hash: string;
  source: string;
  function: string;
  contract: string;
  args: string[];
  status: SubmissionStatus;
  ledger?: number;
  /** A fee-bump envelope: who paid, and the inner transaction's hash (`hash` is the outer one). */
  feeBump?: { feeSource: string; innerHash: string };
};

export type QueuedTx = {
  /** The hash the RPC reports (sendTransaction, getTransaction): the outer one for a fee bump. */
  hash: string;
  /** SHA-256 of the envelope: stellar-core's identity for bans and duplicates (getFullHash). */
  fullHash: string;
  /** A fee bump's inner transaction: its hash (getTransaction finds it) and full hash. */
  inner?: { hash: string; fullHash: string };
  /** The transaction that executes (a fee bump's inner one). */
  tx: xdr.Transaction;
  envelopeXdr: string;
  /** The sequence-number source. */
  source: string;
  /** Who pays: the fee bump's fee source, else the source. */
  feeSource: string;
  seq: bigint;
  /** The envelope's fee (the outer one for a fee bump). */
  fullFee: bigint;
  /** fullFee − the declared resource fee (getInclusionFee). */
  inclusionFee: bigint;
  /** Operations for fee rates: 1, or 2 for a fee bump (FeeBumpTransactionFrame::getNumOperations). */
  numOps: number;
  /** Surge-pricing resources (TransactionFrame::getResources). */
  resources: Resource;
  minTime: number;
  /** 0 when the transaction has no upper time bound. */
  maxTime: number;
  minLedger: number;
  /** Exclusive; 0 = none. */
  maxLedger: number;
  /** First ledger that may include it (later than the next one under a delay fault). */
  includeAt: number;
  /** Ledgers it was eligible for and left out of (TransactionQueue::shift drops it at 4). */
  age: number;
  submission: Submission;
  /** Background traffic (POST /control/traffic, /control/congestion): immune to faults, not listed by /control/transactions. */
  traffic?: boolean;
};
