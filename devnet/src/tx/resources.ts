// What an invocation used: footprint, read/write sizes, event bytes and the rent changes,
// measured from the storage view and the host's event buffer, as rs-soroban-env e2e_invoke.rs
// (invoke_host_function_in_recording_mode, get_ledger_changes, extract_rent_changes) and
// soroban-simulation resources.rs (compute_adjusted_transaction_resources) account for them:
// - disk reads: classic entries (accounts, trustlines) and auto-restored archived entries, at the
//   encoded LedgerEntry size; live Soroban entries are in memory since protocol 23 (CAP-66);
// - write bytes: the encoded new value of every read-write entry the call leaves in place;
// - rent: entries whose TTL or size grows (new entries and restored ones count as new).
import type { xdr } from '@stellar/stellar-sdk';
import { toContractEvent } from '../host/events.ts';
import { isClassic, isTemporary } from '../ledger/keys.ts';
import type { InvokeOutcome } from './invoke.ts';
import { ledgerEntrySize } from '../ledger/ledger-state.ts';
import { rentRelevant, type RentChange } from './fees.ts';

export type Usage = {
  readOnly: xdr.LedgerKey[];
  readWrite: xdr.LedgerKey[];
  instructions: number;
  diskReadEntries: number;
  diskReadBytes: number;
  writeBytes: number;
  eventBytes: number;
  rentChanges: RentChange[];
  /** Indices into readWrite of the archived entries the call restores (archivedSorobanEntries). */
  restoredIndices: number[];
};

export function measure(out: InvokeOutcome): Usage {
  const { storage, host } = out;
  const readOnly = [...storage.readKeys.entries()].filter(([id]) => !storage.writeKeys.has(id));
  const readWrite = [...storage.writeKeys.entries()];
  let diskReadEntries = 0;
  let diskReadBytes = 0;
  for (const [id, key] of [...readOnly, ...readWrite]) {
    if (!isClassic(key) && !storage.restoredKeys.has(id)) continue;
    diskReadEntries++;
    const e = storage.snapshotEntry(id); // simulation sizes accounts as core will have them
    diskReadBytes += e ? ledgerEntrySize(e) : 0;
  }
  const restoredIndices = readWrite.flatMap(([id], i) => (storage.restoredKeys.has(id) ? [i] : []));
  let writeBytes = 0;
  const rentChanges: RentChange[] = [];
  for (const c of storage.changes()) {
    if (!c.after) continue;
    const size = ledgerEntrySize(c.after);
    writeBytes += size;
    if (c.after.liveUntil === undefined) continue;
    // A restored entry is rented as if new (e2e_invoke.rs get_ledger_changes: old size and TTL 0).
    const before = c.before && !storage.restoredKeys.has(c.id) ? c.before : undefined;
    rentChanges.push({
      persistent: !isTemporary(c.key),
      code: c.key.type === 'contractCode',
      oldSize: before ? ledgerEntrySize(before) : 0,
      newSize: size,
      oldLiveUntil: before?.liveUntil ?? 0,
      newLiveUntil: Math.max(c.after.liveUntil, before?.liveUntil ?? 0),
    });
  }
  // TTL extensions of entries the call did not rewrite (Storage::extend_ttl).
  for (const t of ttlExtensions(storage)) {
    const size = ledgerEntrySize(t.before);
    rentChanges.push({
      persistent: !isTemporary(t.key),
      code: t.key.type === 'contractCode',
      oldSize: size,
      newSize: size,
      oldLiveUntil: t.before.liveUntil ?? 0,
      newLiveUntil: t.liveUntil,
    });
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
    rentChanges: rentChanges.filter(rentRelevant),
    restoredIndices,
  };
}

type TtlExtension = {
  key: xdr.LedgerKey;
  before: { data: xdr.LedgerEntryData; lastModified: number; liveUntil?: number };
  liveUntil: number;
};

/** The storage view's TTL-only extensions, when it records them. */
function ttlExtensions(storage: InvokeOutcome['storage']): TtlExtension[] {
  const s = storage as unknown as { ttlChanges?: () => TtlExtension[] };
  return typeof s.ttlChanges === 'function' ? s.ttlChanges() : [];
}
