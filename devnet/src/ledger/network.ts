// The devnet's whole state: ledger entries, the latest closed ledger, the queue
// and history. Ledger closing applies the queue (tx/apply.ts); snapshots copy
// everything cheaply because stored entries and records are never mutated.
import { hash } from '@stellar/stellar-sdk';
import { buildGenesis, GENESIS_SEQUENCE, type Genesis } from './genesis.ts';
import { buildLedger, type ClosedLedger } from './header.ts';
import type { LedgerState } from './ledger-state.ts';
import { Faults } from './faults.ts';
import type { EventRecord, QueuedTx, Submission, TxRecord } from './history.ts';
import type { DeployedContract } from '../host/contract.ts';

export type NetworkOptions = { passphrase: string; accounts: number; ledgerMs: number };

type Snapshot = {
  state: LedgerState;
  latest: ClosedLedger;
  timeOffset: number;
  queue: QueuedTx[];
  records: Map<string, TxRecord>;
  events: EventRecord[];
  submissions: Submission[];
  bans: Map<string, number>;
};

/** Applies the queued transactions for a ledger being closed. */
export type LedgerApplier = (net: Network, sequence: number, closeTime: number) => void;

export class Network {
  readonly passphrase: string;
  readonly networkId: Uint8Array;
  readonly genesis: Genesis;
  readonly contracts: Map<string, DeployedContract>;
  readonly faults = new Faults();
  readonly rpcCalls = new Map<string, number>();
  ledgerMs: number;
  state: LedgerState;
  latest: ClosedLedger;
  /** Seconds added to the wall clock by advance-time. */
  timeOffset = 0;
  /** Close time of the oldest ledger served (genesis). */
  genesisCloseTime: number;
  queue: QueuedTx[] = [];
  records = new Map<string, TxRecord>();
  events: EventRecord[] = [];
  submissions: Submission[] = [];
  /** Hashes evicted or expired recently answer TRY_AGAIN_LATER until this ledger. */
  bans = new Map<string, number>();
  private readonly applier: LedgerApplier;
  private readonly genesisSnapshot: Snapshot;
  private readonly snapshots = new Map<string, Snapshot>();

  constructor(opts: NetworkOptions, applier: LedgerApplier) {
    this.passphrase = opts.passphrase;
    this.networkId = hash(Buffer.from(opts.passphrase));
    this.ledgerMs = opts.ledgerMs;
    this.applier = applier;
    this.genesis = buildGenesis(opts.passphrase, opts.accounts);
    this.contracts = this.genesis.contracts;
    this.state = this.genesis.state.clone();
    this.latest = buildLedger(GENESIS_SEQUENCE, wallSeconds(), Buffer.alloc(32));
    this.genesisCloseTime = this.latest.closeTime;
    this.genesisSnapshot = this.capture();
  }

  /** Network time: the wall clock shifted by advance-time. */
  now(): number {
    return wallSeconds() + this.timeOffset;
  }

  /**
   * The clock time bounds are checked against: network time without the shift from
   * advance-time (and from ledgers closed faster than 1/s). Clients derive maxTime
   * from their wall clock (setTimeout), so shifting this too would make every
   * transaction built after an advance-time txTOO_LATE, which no real network does.
   */
  boundsTime(closeTime: number): number {
    return closeTime - this.timeOffset;
  }

  /** Close times strictly increase, as consensus requires. */
  nextCloseTime(): number {
    return Math.max(this.latest.closeTime + 1, this.now());
  }

  closeLedger(): ClosedLedger {
    const sequence = this.latest.sequence + 1;
    const closeTime = this.nextCloseTime();
    // Ledgers closed faster than one per second run ahead of the wall clock; network
    // time follows them, so advance-time always counts from the last close.
    this.timeOffset += Math.max(0, closeTime - this.now());
    this.applier(this, sequence, closeTime);
    this.latest = buildLedger(sequence, closeTime, this.latest.hash);
    for (const [h, until] of this.bans) if (until <= sequence) this.bans.delete(h);
    return this.latest;
  }

  countCall(method: string): void {
    this.rpcCalls.set(method, (this.rpcCalls.get(method) ?? 0) + 1);
  }

  snapshot(): string {
    const id = `snap-${this.snapshots.size + 1}`;
    this.snapshots.set(id, this.capture());
    return id;
  }

  restore(id: string): boolean {
    const s = this.snapshots.get(id);
    if (!s) return false;
    this.apply(s);
    return true;
  }

  /** Back to genesis entries; the ledger sequence restarts too, with a fresh close time. */
  reset(): void {
    this.apply(this.genesisSnapshot);
    this.latest = buildLedger(GENESIS_SEQUENCE, wallSeconds(), Buffer.alloc(32));
    this.genesisCloseTime = this.latest.closeTime;
    this.faults.clear();
    this.rpcCalls.clear();
  }

  private capture(): Snapshot {
    return {
      state: this.state.clone(),
      latest: this.latest,
      timeOffset: this.timeOffset,
      queue: this.queue.map((q) => ({ ...q, submission: { ...q.submission } })),
      records: new Map(this.records),
      events: [...this.events],
      submissions: this.submissions.map((s) => ({ ...s })),
      bans: new Map(this.bans),
    };
  }

  private apply(s: Snapshot): void {
    const copy = { ...s, state: s.state.clone() };
    this.state = copy.state;
    this.latest = copy.latest;
    this.timeOffset = copy.timeOffset;
    this.records = new Map(copy.records);
    this.events = [...copy.events];
    this.submissions = copy.submissions.map((x) => ({ ...x }));
    // Queued entries must point at the restored submission objects so status updates show.
    const byHash = new Map(this.submissions.map((x) => [x.hash, x]));
    this.queue = copy.queue.map((q) => ({ ...q, submission: byHash.get(q.hash) ?? { ...q.submission } }));
    this.bans = new Map(copy.bans);
  }
}

const wallSeconds = () => Math.floor(Date.now() / 1000);
