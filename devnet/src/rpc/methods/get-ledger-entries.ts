// getLedgerEntries: LedgerEntryData (not LedgerEntry) per found key, in request
// order, missing keys omitted, TTL only for contract entries (§1.5); a temporary entry past its
// TTL is not found, an archived persistent one is returned with liveUntilLedgerSeq 0.
import { xdr } from '@stellar/stellar-sdk';
import { invalidParams, type Method } from '../jsonrpc.ts';
import { isTemporary } from '../../ledger/keys.ts';
import { isArchived, isLive } from '../../ledger/ledger-state.ts';

const MAX_KEYS = 200;
const EXT_V0 = xdr.LedgerEntryExt.v0().toXdr('base64');

export const getLedgerEntries: Method = (net, params) => {
  const keys = params.keys;
  if (!Array.isArray(keys)) throw invalidParams('keys must be an array of base64 LedgerKeys');
  if (keys.length > MAX_KEYS) throw invalidParams(`key count (${keys.length}) exceeds maximum supported (${MAX_KEYS})`);
  const seq = net.latest.sequence;
  const entries = [];
  for (const [i, k] of keys.entries()) {
    let key: xdr.LedgerKey;
    try {
      key = xdr.LedgerKey.fromXdr(String(k), 'base64');
    } catch {
      throw invalidParams(`cannot unmarshal key value ${k} at index ${i}`);
    }
    if (key.type === 'ttl') throw invalidParams('ledger ttl entries cannot be queried directly');
    const id = key.toXdr('base64');
    const stored = net.state.get(id);
    if (!stored || !isLive(stored, isTemporary(key), seq)) continue;
    entries.push({
      key: id,
      xdr: stored.data.toXdr('base64'),
      lastModifiedLedgerSeq: stored.lastModified,
      // An archived persistent entry is still returned, with the placeholder TTL 0 (core's
      // QueryServer state "archived"; stellar-rpc ledgerentries/main.go GetLedgerEntries).
      ...(stored.liveUntil !== undefined && {
        liveUntilLedgerSeq: isArchived(stored, key, seq) ? 0 : stored.liveUntil,
      }),
      extXdr: EXT_V0,
    });
  }
  return { entries, latestLedger: seq };
};
