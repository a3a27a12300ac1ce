// The live ledger: every entry by its base64 LedgerKey. Stored entries are never
// mutated in place, so a snapshot is a shallow copy of the map.
import type { xdr } from '@stellar/stellar-sdk';

export type StoredEntry = {
  data: xdr.LedgerEntryData;
  lastModified: number;
  /** TTL of contract data/code; absent for classic entries. */
  liveUntil?: number;
};

export class LedgerState {
  private entries: Map<string, StoredEntry>;

  constructor(entries?: Map<string, StoredEntry>) {
    this.entries = entries ?? new Map();
  }

  get(id: string): StoredEntry | undefined {
    return this.entries.get(id);
  }

  set(id: string, entry: StoredEntry): void {
    this.entries.set(id, entry);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  clone(): LedgerState {
    return new LedgerState(new Map(this.entries));
  }

  /** Bytes of Soroban state (contract data and code, archived ones included): the rent rate's input. */
  sorobanStateSize(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.liveUntil !== undefined) n += ledgerEntrySize(e);
    return n;
  }
}

const sizes = new WeakMap<StoredEntry, number>();
const encoded = new WeakMap<StoredEntry, string>();

/** XDR size of the entry's data, computed once per stored entry. */
export function entrySize(e: StoredEntry): number {
  let n = sizes.get(e);
  if (n === undefined) {
    n = e.data.toXdr().length;
    sizes.set(e, n);
  }
  return n;
}

/** Base64 of the full LedgerEntry, computed once per stored entry. */
export function entryBase64(e: StoredEntry, toLedgerEntry: (e: StoredEntry) => xdr.LedgerEntry): string {
  let s = encoded.get(e);
  if (s === undefined) {
    s = toLedgerEntry(e).toXdr('base64');
    encoded.set(e, s);
  }
  return s;
}

/**
 * Whether an entry can be read at `ledgerSeq`: a temporary entry past its TTL is gone (core's
 * QueryServer answers "not-found"; the host's snapshot returns nothing); a persistent one past its
 * TTL is archived but still exists (see isArchived).
 */
export function isLive(entry: StoredEntry, temporary: boolean, ledgerSeq: number): boolean {
  return !temporary || entry.liveUntil === undefined || entry.liveUntil >= ledgerSeq;
}

/**
 * A persistent contract entry whose TTL has passed (stellar-core ledger/LedgerTypeUtils isLive on
 * its TTL entry): archived. The devnet never evicts it to a hot archive; it stays in the state
 * with its old live_until until restored.
 */
export function isArchived(entry: StoredEntry, key: xdr.LedgerKey, ledgerSeq: number): boolean {
  return (
    entry.liveUntil !== undefined &&
    entry.liveUntil < ledgerSeq &&
    !(key.type === 'contractData' && key.contractData.durability.name === 'temporary')
  );
}

/** Encoded size of the full LedgerEntry (lastModifiedLedgerSeq + data + ext v0). */
export const ledgerEntrySize = (e: StoredEntry): number => entrySize(e) + 8;
