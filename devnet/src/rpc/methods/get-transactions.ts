// getTransactions (stellar-rpc cmd/stellar-rpc/internal/methods/get_transactions.go): the
// transactions of closed ledgers in application order, from `startLedger` or after a cursor, at
// most `pagination.limit` (default 50, max 200) per answer. The cursor is the TOID
// (ledger << 32 | applicationOrder << 12 | 1) of the last transaction returned — or, when the
// answer ran to the latest ledger, of that ledger's last position (TOID(ledger, txCount, 1); an
// empty ledger gives TOID(ledger, 0, 1)) — and a request with a cursor resumes at the next
// transaction. Items are what getTransaction serves, but `createdAt` is a number, and the close
// times of the range are `latestLedgerCloseTimestamp` / `oldestLedgerCloseTimestamp` (numbers).
// Validation as protocol.GetTransactionsRequest.IsValid: cursor and startLedger exclusive, the
// start inside the retention window, the limit at most 200 — each -32600 (jrpc2.InvalidRequest).
import { RpcError, invalidParams, type Method } from '../jsonrpc.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

const toid = (ledger: number, tx: number, op: number) => (BigInt(ledger) << 32n) | (BigInt(tx) << 12n) | BigInt(op);

export const getTransactions: Method = (net, params) => {
  const pagination = (params.pagination ?? {}) as { cursor?: unknown; limit?: unknown };
  const oldest = net.oldest.sequence;
  const latest = net.latest.sequence;
  const limit =
    pagination.limit === undefined || Number(pagination.limit) === 0 ? DEFAULT_LIMIT : Number(pagination.limit);
  if (!Number.isInteger(limit) || limit < 0) throw invalidParams('limit must be a positive integer');
  if (limit > MAX_LIMIT) throw new RpcError(-32600, `limit must not exceed ${MAX_LIMIT}`);
  const cursor = pagination.cursor === undefined || pagination.cursor === '' ? undefined : String(pagination.cursor);
  const startParam = params.startLedger === undefined ? 0 : Number(params.startLedger);
  if (cursor !== undefined && startParam !== 0) throw new RpcError(-32600, 'startLedger and cursor cannot both be set');
  let startLedger: number;
  let startOrder = 1;
  if (cursor !== undefined) {
    if (!/^\d+$/.test(cursor)) throw invalidParams(`strconv.ParseInt: parsing "${cursor}": invalid syntax`);
    const id = BigInt(cursor);
    startLedger = Number(id >> 32n);
    startOrder = Number((id >> 12n) & 0xfffffn) + 1;
  } else {
    startLedger = startParam;
    if (!Number.isInteger(startLedger) || startLedger < oldest || startLedger > latest) {
      throw new RpcError(
        -32600,
        `start ledger must be between the oldest ledger: ${oldest} and the latest ledger: ${latest} for this rpc instance`,
      );
    }
  }
  const transactions: Record<string, unknown>[] = [];
  let last = toid(0, 0, 0);
  outer: for (let seq = startLedger; seq <= latest; seq++) {
    const ledger = net.ledger(seq);
    if (!ledger) throw invalidParams(`database does not contain metadata for ledger: ${seq}`);
    const records = ledger.txHashes
      .map((h) => net.records.get(h)!)
      .sort((a, b) => a.applicationOrder - b.applicationOrder);
    last = toid(seq, 0, 1);
    for (const rec of records) {
      if (seq === startLedger && rec.applicationOrder < startOrder) continue;
      last = toid(seq, rec.applicationOrder, 1);
      const events: Record<string, unknown> = {};
      if (rec.transactionEventsXdr.length > 0) events.transactionEventsXdr = rec.transactionEventsXdr;
      if (rec.contractEventsXdr.some((op) => op.length > 0)) events.contractEventsXdr = rec.contractEventsXdr;
      transactions.push({
        status: rec.status,
        txHash: rec.hash,
        applicationOrder: rec.applicationOrder,
        feeBump: rec.feeBump,
        envelopeXdr: rec.envelopeXdr,
        resultXdr: rec.resultXdr,
        resultMetaXdr: rec.resultMetaXdr,
        ...(rec.diagnosticEventsXdr.length > 0 && { diagnosticEventsXdr: rec.diagnosticEventsXdr }),
        events,
        ledger: rec.ledger,
        createdAt: rec.createdAt,
      });
      if (transactions.length >= limit) break outer;
    }
  }
  return {
    transactions,
    latestLedger: latest,
    latestLedgerCloseTimestamp: net.latest.closeTime,
    oldestLedger: oldest,
    oldestLedgerCloseTimestamp: net.oldest.closeTime,
    cursor: last.toString(),
  };
};
