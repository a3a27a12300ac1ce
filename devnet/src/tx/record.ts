// Files an applied transaction into the history that getTransaction and getEvents serve.
import { Address, xdr } from '@stellar/stellar-sdk';
import type { Network } from '../network/network.ts';
import type { QueuedTx, TxRecord } from '../ledger/history.ts';

/** One transaction as apply.ts applied it: what the history keeps of it. */
export type Applied = {
  sequence: number;
  closeTime: number;
  order: number;
  result: xdr.TransactionResult;
  meta: xdr.TransactionMeta;
  contractEvents: xdr.ContractEvent[];
  diagnostics: xdr.DiagnosticEvent[];
  success: boolean;
};

export function recordTransaction(net: Network, q: QueuedTx, a: Applied): void {
  const events = xdr.expectUnionVariant(a.meta, 'v4').v4.events;
  const record: TxRecord = {
    hash: q.hash,
    feeBump: q.inner !== undefined,
    innerHash: q.inner?.hash,
    status: a.success ? 'SUCCESS' : 'FAILED',
    ledger: a.sequence,
    createdAt: a.closeTime,
    applicationOrder: a.order,
    envelopeXdr: q.envelopeXdr,
    resultXdr: a.result.toXdr('base64'),
    resultMetaXdr: a.meta.toXdr('base64'),
    diagnosticEventsXdr: a.diagnostics.map((d) => d.toXdr('base64')),
    contractEventsXdr: a.success ? [a.contractEvents.map((e) => e.toXdr('base64'))] : [],
    transactionEventsXdr: events.map((e) => e.toXdr('base64')),
  };
  net.records.set(q.hash, record);
  // stellar-rpc db/transaction.go InsertTransactions: a fee bump is found by its outer and inner hash.
  if (q.inner) net.records.set(q.inner.hash, record);
  q.submission.status = a.success ? 'success' : 'failed';
  q.submission.ledger = a.sequence;

  const closedAt = new Date(a.closeTime * 1000).toISOString().replace('.000Z', 'Z');
  a.contractEvents.forEach((e, i) => {
    const body = e.body.v0;
    net.events.push({
      ledger: a.sequence,
      ledgerClosedAt: closedAt,
      contractId: contractStrkey(e),
      id: `${toid(a.sequence, a.order, 1).toString().padStart(19, '0')}-${String(i).padStart(10, '0')}`,
      operationIndex: 0,
      transactionIndex: a.order - 1,
      txHash: q.hash,
      topic: body.topics.map((t) => t.toXdr('base64')),
      value: body.data.toXdr('base64'),
    });
  });
}

/** Total order id of (ledger, transaction, operation), as Horizon and RPC cursors use it. */
function toid(ledger: number, tx: number, op: number): bigint {
  return (BigInt(ledger) << 32n) | (BigInt(tx) << 12n) | BigInt(op);
}

function contractStrkey(e: xdr.ContractEvent): string {
  return e.contractId ? Address.contract(e.contractId.value).toString() : '';
}
