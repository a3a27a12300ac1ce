// getLedgers (stellar-rpc methods/get_ledgers.go): closed ledgers within the retention window,
// each with its LedgerHeaderHistoryEntry and LedgerCloseMeta, paged by startLedger or by
// cursor (the last sequence returned).
import { RpcError, invalidParams, type Method } from '../jsonrpc.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

export const getLedgers: Method = (net, params) => {
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
  let start: number;
  if (cursor !== undefined) {
    if (!/^\d+$/.test(cursor)) throw invalidParams(`invalid cursor ${cursor}`);
    start = Number(cursor) + 1;
    if (start < oldest || start > latest) {
      throw invalidParams(
        `cursor ('${cursor}') must be between the oldest ledger: ${oldest} and the latest ledger: ${latest} for this rpc instance`,
      );
    }
  } else {
    start = startParam;
    if (!Number.isInteger(start) || start < oldest || start > latest) {
      throw new RpcError(
        -32600,
        `start ledger must be between the oldest ledger: ${oldest} and the latest ledger: ${latest} for this rpc instance`,
      );
    }
  }
  const ledgers = [];
  for (let s = start; s <= latest && ledgers.length < limit; s++) {
    const l = net.ledger(s)!;
    ledgers.push({
      hash: l.hash.toString('hex'),
      sequence: l.sequence,
      ledgerCloseTime: String(l.closeTime),
      headerXdr: l.headerEntryXdr,
      metadataXdr: l.metadataXdr,
    });
  }
  return {
    ledgers,
    latestLedger: latest,
    latestLedgerCloseTime: net.latest.closeTime,
    oldestLedger: oldest,
    oldestLedgerCloseTime: net.oldest.closeTime,
    cursor: String(ledgers.at(-1)?.sequence ?? start - 1),
  };
};
