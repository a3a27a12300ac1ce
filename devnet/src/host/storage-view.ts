// One invocation's view of the ledger: buffered writes plus footprint bookkeeping.
// In record mode (simulation) every touched key is collected into the footprint;
// in enforce mode (apply, or simulation with a given footprint) a key outside the
// declared footprint is an error, as the real host's storage map would report.
import type { xdr } from '@stellar/stellar-sdk';
import { isArchived, isLive, type LedgerState, type StoredEntry } from '../ledger/ledger-state.ts';
import { isTemporary, keyId } from '../ledger/keys.ts';

export type AccessMode =
  | { kind: 'record' }
  | { kind: 'enforce'; readOnly: Set<string>; readWrite: Set<string> };

export class FootprintError extends Error {
  readonly key: xdr.LedgerKey;
  constructor(key: xdr.LedgerKey) {
    super('access outside the footprint');
    this.key = key;
  }
}

export type EntryChange = { key: xdr.LedgerKey; id: string; before?: StoredEntry; after: StoredEntry | null };

export class StorageView {
  readonly readKeys = new Map<string, xdr.LedgerKey>();
  readonly writeKeys = new Map<string, xdr.LedgerKey>();
  private overlay = new Map<string, { key: xdr.LedgerKey; entry: StoredEntry | null }>();
  private state: LedgerState;
  private ledgerSeq: number;
  private mode: AccessMode;

  /** Persistent entries past their TTL that this invocation restores (protocol-23 auto-restore). */
  readonly restoredKeys = new Map<string, xdr.LedgerKey>();
  /** live_until of a restored entry: ledger + minPersistentTTL − 1; undefined = no restoring. */
  private readonly restoreLiveUntil: number | undefined;

  constructor(state: LedgerState, ledgerSeq: number, mode: AccessMode, restoreLiveUntil?: number) {
    this.state = state;
    this.ledgerSeq = ledgerSeq;
    this.mode = mode;
    this.restoreLiveUntil = restoreLiveUntil;
  }

  get(key: xdr.LedgerKey): StoredEntry | undefined {
    const id = keyId(key);
    this.access(key, id, false);
    const buffered = this.overlay.get(id);
    if (buffered) return buffered.entry ?? undefined;
    const entry = this.state.get(id);
    if (!entry || !isLive(entry, isTemporary(key), this.ledgerSeq)) return undefined;
    // rs-soroban-env storage.rs Storage::handle_maybe_expired_entry (recording mode): an archived
    // persistent entry joins the read-write footprint and is restored to the minimum TTL.
    if (this.mode.kind === 'record' && isArchived(entry, key, this.ledgerSeq)) return this.restore(key);
    return entry;
  }

  /**
   * Restores an archived persistent entry for this invocation: rewritten at this ledger with
   * live_until = max(its own, ledger + minPersistentTTL − 1) (core InvokeHostFunctionOpFrame
   * handleArchivedEntry for entries marked in archivedSorobanEntries; RestoreFootprintOpFrame).
   * Needs read-write access.
   */
  restore(key: xdr.LedgerKey): StoredEntry | undefined {
    const id = keyId(key);
    const entry = this.state.get(id);
    if (!entry || this.restoreLiveUntil === undefined) return entry;
    this.access(key, id, true);
    const restored: StoredEntry = { ...entry, lastModified: this.ledgerSeq, liveUntil: Math.max(entry.liveUntil ?? 0, this.restoreLiveUntil) };
    this.overlay.set(id, { key, entry: restored });
    this.restoredKeys.set(id, key);
    return restored;
  }

  put(key: xdr.LedgerKey, data: xdr.LedgerEntryData, liveUntil?: number): void {
    const id = keyId(key);
    this.access(key, id, true);
    this.overlay.set(id, { key, entry: { data, lastModified: this.ledgerSeq, liveUntil } });
  }

  remove(key: xdr.LedgerKey): void {
    const id = keyId(key);
    this.access(key, id, true);
    this.overlay.set(id, { key, entry: null });
  }

  changes(): EntryChange[] {
    const out: EntryChange[] = [];
    for (const [id, { key, entry }] of this.overlay) {
      const before = this.state.get(id);
      if (!before && !entry) continue;
      out.push({ key, id, before, after: entry });
    }
    return out;
  }

  commit(): void {
    for (const [id, { entry }] of this.overlay) {
      if (entry) this.state.set(id, entry);
      else this.state.delete(id);
    }
  }

  private access(key: xdr.LedgerKey, id: string, write: boolean): void {
    if (this.mode.kind === 'record') {
      if (write) {
        this.writeKeys.set(id, key);
        this.readKeys.delete(id);
      } else if (!this.writeKeys.has(id)) {
        this.readKeys.set(id, key);
      }
      return;
    }
    const inRw = this.mode.readWrite.has(id);
    if (write ? !inRw : !inRw && !this.mode.readOnly.has(id)) throw new FootprintError(key);
    (write ? this.writeKeys : this.readKeys).set(id, key);
  }
}
