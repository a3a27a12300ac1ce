// What an invocation used: footprint, read/write sizes, event bytes and rent,
// measured from the storage view and the host's event buffer.
import type { xdr } from '@stellar/stellar-sdk';
import { toContractEvent } from '../host/events.ts';
import { isClassic } from '../ledger/keys.ts';
import type { InvokeOutcome } from './invoke.ts';
import { entrySize, type LedgerState } from '../ledger/ledger-state.ts';

export type Usage = {
  readOnly: xdr.LedgerKey[];
  readWrite: xdr.LedgerKey[];
  instructions: number;
  diskReadEntries: number;
  diskReadBytes: number;
  writeBytes: number;
  eventBytes: number;
  created: { bytes: number; ledgers: number }[];
};

export function measure(out: InvokeOutcome, state: LedgerState, ledgerSeq: number): Usage {
  const { storage, host } = out;
  const readOnly = [...storage.readKeys.entries()].filter(([id]) => !storage.writeKeys.has(id));
  const readWrite = [...storage.writeKeys.entries()];
  let diskReadEntries = 0;
  let diskReadBytes = 0;
  for (const [id, key] of [...readOnly, ...readWrite]) {
    if (!isClassic(key)) continue;
    diskReadEntries++;
    const e = state.get(id);
    diskReadBytes += e ? entrySize(e) : 0;
  }
  let writeBytes = 0;
  const created: Usage['created'] = [];
  for (const c of storage.changes()) {
    if (!c.after) continue;
    const bytes = entrySize(c.after);
    writeBytes += bytes;
    if (!c.before && c.after.liveUntil !== undefined) {
      created.push({ bytes, ledgers: c.after.liveUntil - ledgerSeq + 1 });
    }
  }
  let eventBytes = out.value ? out.value.toXdr().length : 0;
  for (const e of host.events) if (e.kind === 'contract') eventBytes += toContractEvent(e).toXdr().length;
  return {
    readOnly: readOnly.map(([, k]) => k),
    readWrite: readWrite.map(([, k]) => k),
    instructions: host.instructions,
    diskReadEntries,
    diskReadBytes,
    writeBytes,
    eventBytes,
    created,
  };
}
