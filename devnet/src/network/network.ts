// The devnet's whole state: ledger entries, the closed ledgers (with their meta), the queue
// and history. Ledger closing applies the queue (tx/apply.ts); snapshots copy everything
// cheaply because stored entries, ledgers and records are never mutated.
import { hash } from '@stellar/stellar-sdk';
import { buildGenesis, GENESIS_SEQUENCE, type Genesis } from './genesis.ts';
import { buildLedger, type ClosedLedger, type LedgerTx } from '../ledger/header.ts';
import type { LedgerState } from '../ledger/ledger-state.ts';
import { Faults } from '../ledger/faults.ts';
import type { EventRecord, QueuedTx, Submission, TxRecord } from '../ledger/history.ts';
import type { DeployedContract } from '../host/contract.ts';
import type { VaultBuild } from '../contracts/vault.ts';
import { networkConfig, type NetworkConfigOverrides, type SorobanNetworkConfig } from '../ledger/network-config.ts';

export type NetworkOptions = {
  passphrase: string;
  accounts: number;
  /** The vault contract's build (contracts/vault.ts); default 'deployed'. */
  vaultBuild?: VaultBuild;
  ledgerMs: number;
  /** Ledgers the RPC side remembers (getTransaction, getEvents, getLedgers); undefined = all. */
  retentionLedgers?: number;
  /** Test overrides of the network configuration (minimum TTLs, ledger transaction count). */
  config?: NetworkConfigOverrides;
};

/** The Soroban inclusion fees charged in one ledger (what stellar-rpc's fee window ingests). */
export type LedgerFees = { sequence: number; sorobanInclusionFees: bigint[] };

/** stellar-rpc's soroban-fee-stats-retention-window default (config/options.go). */
export const FEE_STATS_WINDOW = 50;

type Snapshot = {
  state: LedgerState;
  ledgers: ClosedLedger[];
  feePool: bigint;
  timeOffset: number;
  queue: QueuedTx[];
  records: Map<string, TxRecord>;
  events: EventRecord[];
  submissions: Submission[];
  bans: Map<string, number>;
  laneEvictedFee: { fee: bigint; ops: number } | undefined;
  feeWindow: LedgerFees[];
  extra: Map<string, unknown>;
};

/** Applies the queued transactions for a ledger being closed. */
export type LedgerApplier = (
  net: Network,
  sequence: number,
  closeTime: number,
) => {
  txs: LedgerTx[];
  fees: bigint;
  /** The Soroban phase's base fee (surge pricing), when it holds transactions. */
  baseFee: bigint;
  /** Inclusion fee charged to each Soroban transaction: feeCharged − resource fees charged. */
  inclusionFees: bigint[];
};

/** Runs after every ledger close (controls that keep the queue loaded, e.g. congestion). */
export type CloseHook = (net: Network, closed: ClosedLedger) => void;

export class Network {
  readonly passphrase: string;
  readonly networkId: Uint8Array;
  readonly genesis: Genesis;
  readonly contracts: Map<string, DeployedContract>;
  readonly faults = new Faults();
  readonly rpcCalls = new Map<string, number>();
  readonly retentionLedgers: number | undefined;
  /** The Soroban network configuration (limits, fees, state archival), with test overrides. */
  readonly config: SorobanNetworkConfig;
  ledgerMs: number;
  state: LedgerState;
  /** Closed ledgers still served, oldest first; the last one is the latest. */
  ledgers: ClosedLedger[];
  /** Fees collected so far (LedgerHeader.feePool). */
  feePool = 0n;
  /** Seconds added to the wall clock by advance-time. */
  timeOffset = 0;
  queue: QueuedTx[] = [];
  records = new Map<string, TxRecord>();
  events: EventRecord[] = [];
  submissions: Submission[] = [];
  /** Full hashes banned (evicted, expired, refused for fee, applied): TRY_AGAIN_LATER until this ledger has closed. */
  bans = new Map<string, number>();
  /** The last bid evicted since the last ledger: later bids must beat it (TxQueueLimiter). */
  laneEvictedFee: { fee: bigint; ops: number } | undefined;
  /** Soroban inclusion fees of the last FEE_STATS_WINDOW ledgers (getFeeStats). */
  feeWindow: LedgerFees[] = [];
  /** State of controls that must follow snapshots and reset (by control name). */
  extra = new Map<string, unknown>();
  readonly closeHooks: CloseHook[] = [];
  private readonly applier: LedgerApplier;
  private readonly genesisSnapshot: Snapshot;
  private readonly snapshots = new Map<string, Snapshot>();

  constructor(opts: NetworkOptions, applier: LedgerApplier) {
    if (
      opts.retentionLedgers !== undefined &&
      (!Number.isInteger(opts.retentionLedgers) || opts.retentionLedgers < 1)
    ) {
      throw new Error('retentionLedgers must be a positive integer');
    }
    this.passphrase = opts.passphrase;
    this.networkId = hash(Buffer.from(opts.passphrase));
    this.ledgerMs = opts.ledgerMs;
    this.retentionLedgers = opts.retentionLedgers;
    this.config = networkConfig(opts.config);
    this.applier = applier;
    this.genesis = buildGenesis(opts.passphrase, opts.accounts, opts.vaultBuild);
    this.contracts = this.genesis.contracts;
    this.state = this.genesis.state.clone();
    this.ledgers = [buildLedger(GENESIS_SEQUENCE, wallSeconds(), new Uint8Array(32))];
    this.genesisSnapshot = this.capture();
  }

  get latest(): ClosedLedger {
    return this.ledgers[this.ledgers.length - 1];
  }

  /** The oldest ledger still served: genesis, or the start of the retention window. */
  get oldest(): ClosedLedger {
    return this.ledgers[0];
  }

  /** A served ledger by sequence, or undefined when outside the window. */
  ledger(sequence: number): ClosedLedger | undefined {
    const i = sequence - this.oldest.sequence;
    return i >= 0 && i < this.ledgers.length ? this.ledgers[i] : undefined;
  }

  /** Network time: the wall clock shifted by advance-time. */
  now(): number {
    return wallSeconds() + this.timeOffset;
  }

  /** Close times strictly increase, as consensus requires. */
  nextCloseTime(): number {
    return Math.max(this.latest.closeTime + 1, this.now());
  }

  /**
   * Closes the next ledger. `closeTime` (tests, advance-ledgers) must be later than the last one;
   * by default the network time, at least a second after the last close.
   */
  closeLedger(closeTime = this.nextCloseTime()): ClosedLedger {
    const sequence = this.latest.sequence + 1;
    if (closeTime <= this.latest.closeTime) throw new Error('close times must increase');
    // Ledgers closed faster than one per second run ahead of the wall clock; network
    // time follows them, so advance-time always counts from the last close.
    this.timeOffset += Math.max(0, closeTime - this.now());
    const applied = this.applier(this, sequence, closeTime);
    this.feePool += applied.fees;
    this.ledgers.push(buildLedger(sequence, closeTime, this.latest.hash, applied.txs, this.feePool, applied.baseFee));
    this.feeWindow.push({ sequence, sorobanInclusionFees: applied.inclusionFees });
    if (this.feeWindow.length > FEE_STATS_WINDOW) this.feeWindow.splice(0, this.feeWindow.length - FEE_STATS_WINDOW);
    this.forgetOutsideWindow();
    const closed = this.latest;
    for (const hook of this.closeHooks) hook(this, closed);
    return closed;
  }

  /** A real RPC forgets ledgers (and their transactions and events) older than its retention window. */
  private forgetOutsideWindow(): void {
    if (this.retentionLedgers === undefined || this.ledgers.length <= this.retentionLedgers) return;
    const dropped = this.ledgers.splice(0, this.ledgers.length - this.retentionLedgers);
    for (const l of dropped) {
      for (const h of l.txHashes) {
        const inner = this.records.get(h)?.innerHash;
        if (inner) this.records.delete(inner);
        this.records.delete(h);
      }
    }
    const oldest = this.oldest.sequence;
    const firstKept = this.events.findIndex((e) => e.ledger >= oldest);
    this.events = firstKept < 0 ? [] : this.events.slice(firstKept);
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
    this.ledgers = [buildLedger(GENESIS_SEQUENCE, wallSeconds(), new Uint8Array(32))];
    this.faults.clear();
    this.rpcCalls.clear();
  }

  private capture(): Snapshot {
    return {
      state: this.state.clone(),
      ledgers: [...this.ledgers],
      feePool: this.feePool,
      timeOffset: this.timeOffset,
      queue: this.queue.map((q) => ({ ...q, submission: { ...q.submission } })),
      records: new Map(this.records),
      events: [...this.events],
      submissions: this.submissions.map((s) => ({ ...s })),
      bans: new Map(this.bans),
      laneEvictedFee: this.laneEvictedFee,
      feeWindow: [...this.feeWindow],
      extra: new Map([...this.extra].map(([k, v]) => [k, structuredClone(v)])),
    };
  }

  private apply(s: Snapshot): void {
    this.state = s.state.clone();
    this.ledgers = [...s.ledgers];
    this.feePool = s.feePool;
    this.timeOffset = s.timeOffset;
    this.records = new Map(s.records);
    this.events = [...s.events];
    this.submissions = s.submissions.map((x) => ({ ...x }));
    // Queued entries must point at the restored submission objects so status updates show.
    const byHash = new Map(this.submissions.map((x) => [x.hash, x]));
    this.queue = s.queue.map((q) => ({ ...q, submission: byHash.get(q.hash) ?? { ...q.submission } }));
    this.bans = new Map(s.bans);
    this.laneEvictedFee = s.laneEvictedFee;
    this.feeWindow = [...s.feeWindow];
    this.extra = new Map([...s.extra].map(([k, v]) => [k, structuredClone(v)]));
  }
}

const wallSeconds = () => Math.floor(Date.now() / 1000);
