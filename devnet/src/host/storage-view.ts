// One invocation's view of the ledger: buffered writes plus footprint bookkeeping.
// In record mode (simulation) every touched key is collected into the footprint;
// in enforce mode (apply, or simulation with a given footprint) a key outside the
// declared footprint is an error, as the real host's storage map would report.
import type { xdr } from '@stellar/stellar-sdk';
import { accountExtV3, accountExtV3Of, accountOf, accountWith } from '../ledger/accounts.ts';
import { isArchived, isLive, type LedgerState, type StoredEntry } from '../ledger/ledger-state.ts';
import { isTemporary, keyId } from '../ledger/keys.ts';

export type AccessMode = { kind: 'record' } | { kind: 'enforce'; readOnly: Set<string>; readWrite: Set<string> };

export class FootprintError extends Error {
  readonly key: xdr.LedgerKey;
  constructor(key: xdr.LedgerKey) {
    super('access outside the footprint');
    this.key = key;
  }
}

export type EntryChange = { key: xdr.LedgerKey; id: string; before?: StoredEntry; after: StoredEntry | null };

/** A TTL extension of an entry the invocation did not otherwise write (its data unchanged). */
export type TtlChange = { key: xdr.LedgerKey; id: string; before: StoredEntry; liveUntil: number };

export class StorageView {
  readonly readKeys = new Map<string, xdr.LedgerKey>();
  readonly writeKeys = new Map<string, xdr.LedgerKey>();
  private overlay = new Map<string, { key: xdr.LedgerKey; entry: StoredEntry | null; ttlOnly?: boolean }>();
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
    if (this.mode.kind === 'record' && key.type === 'account') return this.simulatedAccount(id, entry);
    return entry;
  }

  private readonly padded = new Map<string, StoredEntry>();

  /**
   * soroban-simulation snapshot_source.rs `SimulationSnapshotSource` / `LedgerEntryUpdater`:
   * simulation reads every account entry with its v1/v2/v3 extensions filled in, because core
   * creates them (the sequence bump's seqLedger/seqTime) before the host runs, so read bytes
   * and anything the call writes back are sized as they will be at apply.
   */
  private simulatedAccount(id: string, entry: StoredEntry): StoredEntry {
    let p = this.padded.get(id);
    if (!p) {
      p = { ...entry, data: withAccountExtV3(entry.data) };
      this.padded.set(id, p);
    }
    return p;
  }

  /** The entry as this invocation's reads saw it before any write (simulation pads accounts). */
  snapshotEntry(id: string): StoredEntry | undefined {
    return this.padded.get(id) ?? this.state.get(id);
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
    const restored: StoredEntry = {
      ...entry,
      lastModified: this.ledgerSeq,
      liveUntil: Math.max(entry.liveUntil ?? 0, this.restoreLiveUntil),
    };
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

  /**
   * A new live_until for an entry, leaving its data alone: the host's TTL extension
   * (storage.rs `Storage::apply_ttl_extension`). It needs only read access, so an entry in the
   * read-only footprint can be extended; the caller has checked that the entry exists.
   */
  extendTtl(key: xdr.LedgerKey, liveUntil: number): void {
    const id = keyId(key);
    this.access(key, id, false);
    const buffered = this.overlay.get(id);
    if (buffered) {
      if (buffered.entry) this.overlay.set(id, { ...buffered, entry: { ...buffered.entry, liveUntil } });
      return;
    }
    const entry = this.state.get(id);
    if (entry) this.overlay.set(id, { key, entry: { ...entry, liveUntil }, ttlOnly: true });
  }

  /** Entries created, updated or removed (TTL-only extensions are in ttlChanges()). */
  changes(): EntryChange[] {
    const out: EntryChange[] = [];
    for (const [id, { key, entry, ttlOnly }] of this.overlay) {
      if (ttlOnly) continue;
      const before = this.state.get(id);
      if (!before && !entry) continue;
      out.push({ key, id, before, after: entry });
    }
    return out;
  }

  /** TTL extensions of entries whose data this invocation did not change. */
  ttlChanges(): TtlChange[] {
    const out: TtlChange[] = [];
    for (const [id, { key, entry, ttlOnly }] of this.overlay) {
      const before = this.state.get(id);
      if (ttlOnly && entry && before && entry.liveUntil !== undefined)
        out.push({ key, id, before, liveUntil: entry.liveUntil });
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

/** snapshot_source.rs `update_account_entry`: AccountEntryExt v1 → v2 → v3 filled with zeros where absent. */
function withAccountExtV3(data: xdr.LedgerEntryData): xdr.LedgerEntryData {
  const a = accountOf(data);
  return accountExtV3Of(a) ? data : accountWith(a, { ext: accountExtV3(a, 0, 0n) });
}
