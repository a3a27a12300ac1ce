// getTransaction (stellar-rpc methods/get_transaction.go, db/transaction.go): by hash, a fee bump by
// its outer or its inner hash (txHash echoes the one asked for; feeBump true; the envelope, result
// and meta are the fee bump's).
import { invalidParams, type Method } from '../jsonrpc.ts';

export const getTransaction: Method = (net, params) => {
  const hash = String(params.hash ?? '');
  if (hash.length !== 64) throw invalidParams(`unexpected hash length (${hash.length})`);
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw invalidParams('incorrect hash: invalid hex');
  const base = {
    txHash: hash,
    latestLedger: net.latest.sequence,
    latestLedgerCloseTime: String(net.latest.closeTime),
    oldestLedger: net.oldest.sequence,
    oldestLedgerCloseTime: String(net.oldest.closeTime),
  };
  const rec = net.records.get(hash.toLowerCase());
  // Outside the retention window a real RPC has forgotten the transaction: NOT_FOUND again.
  if (!rec || rec.ledger < net.oldest.sequence) return { status: 'NOT_FOUND', ...base };
  const events: Record<string, unknown> = {};
  if (rec.transactionEventsXdr.length > 0) events.transactionEventsXdr = rec.transactionEventsXdr;
  if (rec.contractEventsXdr.some((op) => op.length > 0)) events.contractEventsXdr = rec.contractEventsXdr;
  return {
    status: rec.status,
    ...base,
    ledger: rec.ledger,
    createdAt: String(rec.createdAt),
    applicationOrder: rec.applicationOrder,
    feeBump: rec.feeBump,
    envelopeXdr: rec.envelopeXdr,
    resultXdr: rec.resultXdr,
    resultMetaXdr: rec.resultMetaXdr,
    ...(rec.diagnosticEventsXdr.length > 0 && { diagnosticEventsXdr: rec.diagnosticEventsXdr }),
    events,
  };
};
