// What the network remembers about transactions and events, as getTransaction,
// getEvents and the control API read it back.
import type { xdr } from '@stellar/stellar-sdk';

export type TxRecord = {
  hash: string;
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

export type SubmissionStatus = 'queued' | 'success' | 'failed' | 'dropped' | 'expired';

/** One transaction accepted by sendTransaction, as GET /control/transactions lists it. */
export type Submission = {
  hash: string;
  source: string;
  function: string;
  contract: string;
  args: string[];
  status: SubmissionStatus;
  ledger?: number;
};

export type QueuedTx = {
  hash: string;
  tx: xdr.Transaction;
  envelopeXdr: string;
  source: string;
  seq: bigint;
  /** 0 when the transaction has no upper time bound. */
  maxTime: number;
  /** First ledger that may include it (later than the next one under a delay fault). */
  includeAt: number;
  submission: Submission;
  /** Background traffic (POST /control/traffic): immune to faults, not listed by /control/transactions. */
  traffic?: boolean;
};
