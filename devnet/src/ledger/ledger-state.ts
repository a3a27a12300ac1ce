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

/** A temporary entry past its TTL is gone; persistent ones are treated as auto-restored. */
export function isLive(entry: StoredEntry, temporary: boolean, ledgerSeq: number): boolean {
  return !temporary || entry.liveUntil === undefined || entry.liveUntil >= ledgerSeq;
}
