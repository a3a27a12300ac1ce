// The Soroban transaction queue and the surge-priced choice of what a ledger includes, after
// stellar-core:
// - src/herder/TransactionQueue.cpp: TransactionQueue::canAdd / tryAdd (bans, one transaction per
//   source account, duplicates, replace-by-fee `canReplaceByFee` with FEE_MULTIPLIER = 10),
//   removeApplied (applied transactions are banned too), shift (age-out after
//   TRANSACTION_QUEUE_TIMEOUT_LEDGERS = 4, bans last TRANSACTION_QUEUE_BAN_LEDGERS = 10 ledgers,
//   HerderImpl.cpp), ban;
// - src/herder/TxQueueLimiter.cpp: the queue holds SOROBAN_TRANSACTION_QUEUE_SIZE_MULTIPLIER = 2
//   ledgers' worth of resources (Config.cpp); canAddTx with mLaneEvictedInclusionFee; evictTransactions;
// - src/herder/SurgePricingUtils.cpp: canFitWithEviction (evict strictly lower fee rates of other
//   accounts, else refuse with the fee that would do), feeRate3WayCompare, computeBetterFee,
//   getMostTopTxsWithinLimits (all fit, or highest fee rate first, skipping what does not fit);
// - src/herder/TxSetFrame.cpp: computeLaneBaseFee (the lowest included fee rate when some
//   transaction did not fit, else the ledger base fee), computePerOpFee;
// - src/herder/HerderImpl.cpp updateTransactionQueue + TxSetUtils::getInvalidTxListWithErrors: after
//   each ledger, queued transactions that became invalid (time bound within the upper close-time
//   offset, ledger bound, used sequence number) are banned.
import type { Network } from '../network/network.ts';
import type { QueuedTx } from '../ledger/history.ts';
import {
  addResources,
  anyGreater,
  anyPositive,
  emptyResources,
  maxLedgerResources,
  scaleResources,
  subResources,
  type Resource,
  type SorobanNetworkConfig,
} from '../ledger/network-config.ts';
import { accountKey, isClassic, keyId } from '../ledger/keys.ts';
import { seqOf } from '../ledger/accounts.ts';
import { BASE_FEE } from './fees.ts';
import { archivedIndices, ledgerBounds, sorobanData, sorobanOpType, timeBounds, type ParsedTx } from './parse.ts';

export const FEE_MULTIPLIER = 10n;
export const QUEUE_TIMEOUT_LEDGERS = 4;
export const BAN_LEDGERS = 10;
export const QUEUE_SIZE_MULTIPLIER = 2;
/** TransactionUtils.h EXPECTED_CLOSE_TIME_MULT. */
const EXPECTED_CLOSE_TIME_MULT = 2;

// ---------------------------------------------------------------------------------------------
// Fee rates

/** feeRate3WayCompare: a.fee / a.ops against b.fee / b.ops, without division. */
export function feeRateCompare(aFee: bigint, aOps: number, bFee: bigint, bOps: number): number {
  const l = aFee * BigInt(bOps);
  const r = bFee * BigInt(aOps);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** computeBetterFee: the smallest inclusion fee for `ops` operations that beats ref (strictly). */
export const betterFee = (ops: number, refFee: bigint, refOps: number): bigint =>
  (refFee * BigInt(ops)) / BigInt(refOps) + 1n;

/** computePerOpFee (rounded down since Soroban). */
export const perOpFee = (q: QueuedTx): bigint => q.inclusionFee / BigInt(Math.max(1, q.numOps));

/** getMinInclusionFee: the ledger base fee per operation. */
export const minInclusionFee = (numOps: number): bigint => BigInt(BASE_FEE) * BigInt(Math.max(1, numOps));

const resourceFeeOf = (q: QueuedTx): bigint => q.fullFee - q.inclusionFee;

/** Lowest fee rate first, ties by full hash (TxFeeComparator in BUILD_TESTS; core breaks ties by a seeded pointer xor). */
const lowestFirst = (a: QueuedTx, b: QueuedTx) =>
  feeRateCompare(a.inclusionFee, a.numOps, b.inclusionFee, b.numOps) ||
  (a.fullHash < b.fullHash ? -1 : a.fullHash > b.fullHash ? 1 : 0);
const highestFirst = (a: QueuedTx, b: QueuedTx) => -lowestFirst(a, b);

// ---------------------------------------------------------------------------------------------
// Building a QueuedTx

/**
 * TransactionFrame::getResources for a Soroban transaction: {operations, instructions, envelope
 * size, disk-read bytes, write bytes, disk-read entries (classic keys plus the archived entries to
 * restore; every read-write key of a RestoreFootprint: getNumDiskReadEntries), write entries}; a fee
 * bump counts 2 operations.
 */
export function resourcesOf(p: ParsedTx, envelopeBytes: number): Resource {
  const data = sorobanData(p.tx);
  const ops = p.feeBump ? 2 : 1;
  if (!data) return [ops, 0, envelopeBytes, 0, 0, 0, 0];
  const r = data.resources;
  const fp = [...r.footprint.readOnly, ...r.footprint.readWrite];
  const diskReadEntries =
    sorobanOpType(p) === 'restoreFootprint'
      ? r.footprint.readWrite.length + r.footprint.readOnly.filter(isClassic).length
      : fp.filter(isClassic).length + archivedIndices(data).length;
  return [
    ops,
    r.instructions,
    envelopeBytes,
    r.diskReadBytes,
    r.writeBytes,
    diskReadEntries,
    r.footprint.readWrite.length,
  ];
}

export type QueuedFields = Omit<
  QueuedTx,
  'submission' | 'includeAt' | 'age' | 'hash' | 'fullHash' | 'inner' | 'traffic'
>;

/** The fee, bound and resource fields of a queued transaction. */
export function queueFields(p: ParsedTx, envelopeXdr: string): QueuedFields {
  const data = sorobanData(p.tx);
  const resourceFee = data?.resourceFee ?? 0n;
  const fullFee = p.feeBump ? p.feeBump.fee : BigInt(p.tx.fee);
  const { minTime, maxTime } = timeBounds(p.tx);
  const { minLedger, maxLedger } = ledgerBounds(p.tx);
  return {
    tx: p.tx,
    envelopeXdr,
    source: p.source,
    feeSource: p.feeBump?.feeSource ?? p.source,
    seq: p.tx.seqNum,
    fullFee,
    inclusionFee: fullFee - resourceFee,
    numOps: p.feeBump ? p.ops.length + 1 : Math.max(1, p.ops.length),
    resources: resourcesOf(p, Buffer.from(envelopeXdr, 'base64').length),
    minTime,
    maxTime,
    minLedger,
    maxLedger,
  };
}

// ---------------------------------------------------------------------------------------------
// Bans

/** Bans last until ledger `latest + BAN_LEDGERS` has closed (mBannedTransactions, banDepth 10). */
export function ban(net: Network, fullHash: string, atLedger = net.latest.sequence): void {
  net.bans.set(fullHash, Math.max(net.bans.get(fullHash) ?? 0, atLedger + BAN_LEDGERS));
}

export const isBanned = (net: Network, fullHash: string): boolean => net.bans.has(fullHash);

function drop(net: Network, q: QueuedTx, status: QueuedTx['submission']['status'], banAt: number | false): void {
  net.queue = net.queue.filter((x) => x !== q);
  if (q.submission.status === 'queued') q.submission.status = status;
  if (banAt !== false) ban(net, q.fullHash, banAt);
}

// ---------------------------------------------------------------------------------------------
// Admission

export type CanAdd =
  | { kind: 'ok'; replaces?: QueuedTx; evict: QueuedTx[] }
  | { kind: 'DUPLICATE' }
  | { kind: 'TRY_AGAIN_LATER' }
  /** ERROR with this code; feeCharged when the result reports a fee that would do. */
  | { kind: 'ERROR'; code: 'txBadSeq' | 'txInsufficientFee'; feeCharged?: bigint };

/** The queue's capacity: SOROBAN_TRANSACTION_QUEUE_SIZE_MULTIPLIER ledgers of resources. */
export const queueLimits = (cfg: SorobanNetworkConfig): Resource =>
  scaleResources(maxLedgerResources(cfg), QUEUE_SIZE_MULTIPLIER);

export const queuedResources = (net: Network, except?: QueuedTx): Resource =>
  net.queue.reduce((sum, q) => (q === except ? sum : addResources(sum, q.resources)), emptyResources());

/**
 * TransactionQueue::canAdd up to the validity checks: ban, the source's queued transaction
 * (duplicate, older sequence, replace-by-fee), then the limiter (capacity and eviction).
 * `isFeeBump`: the candidate is a fee-bump envelope.
 */
export function canAdd(net: Network, c: QueuedTx, isFeeBump: boolean, opts: { dryRun?: boolean } = {}): CanAdd {
  if (isBanned(net, c.fullHash)) return { kind: 'TRY_AGAIN_LATER' };
  const current = net.queue.find((q) => q.source === c.source);
  let replaces: QueuedTx | undefined;
  if (current) {
    // isDuplicateTx: the same envelope, or the inner transaction of a queued fee bump.
    if (current.fullHash === c.fullHash || current.inner?.fullHash === c.fullHash) return { kind: 'DUPLICATE' };
    if (c.seq < current.seq) return { kind: 'ERROR', code: 'txBadSeq' };
    if (!isFeeBump || c.seq !== current.seq) return { kind: 'TRY_AGAIN_LATER' };
    // canReplaceByFee: newFee / newOps ≥ FEE_MULTIPLIER × oldFee / oldOps (inclusion fees).
    const minFeeN = current.inclusionFee * BigInt(c.numOps) * FEE_MULTIPLIER;
    if (c.inclusionFee < 0n || c.inclusionFee * BigInt(current.numOps) < minFeeN) {
      const minFee = (minFeeN + BigInt(current.numOps) - 1n) / BigInt(current.numOps) + resourceFeeOf(c);
      return { kind: 'ERROR', code: 'txInsufficientFee', feeCharged: minFee };
    }
    replaces = current;
  }
  const limit = limiter(net, c, replaces);
  if (limit.kind !== 'ok') {
    if (!opts.dryRun) ban(net, c.fullHash);
    return limit.minFee > 0n
      ? { kind: 'ERROR', code: 'txInsufficientFee', feeCharged: limit.minFee }
      : { kind: 'TRY_AGAIN_LATER' };
  }
  return { kind: 'ok', replaces, evict: limit.evict };
}

type Limit = { kind: 'ok'; evict: QueuedTx[] } | { kind: 'full'; minFee: bigint };

/** TxQueueLimiter::canAddTx + SurgePricingPriorityQueue::canFitWithEviction (one Soroban lane). */
function limiter(net: Network, c: QueuedTx, replaces: QueuedTx | undefined): Limit {
  const evicted = net.laneEvictedFee;
  if (evicted && feeRateCompare(evicted.fee, evicted.ops, c.inclusionFee, c.numOps) >= 0) {
    return { kind: 'full', minFee: betterFee(c.numOps, evicted.fee, evicted.ops) + resourceFeeOf(c) };
  }
  const limits = queueLimits(net.config);
  const need = replaces ? subResources(c.resources, replaces.resources) : c.resources;
  if (anyGreater(need, limits)) return { kind: 'full', minFee: 0n };
  const total = queuedResources(net, replaces);
  if (!anyGreater(addResources(total, need), limits)) return { kind: 'ok', evict: [] };
  let needed = subResources(addResources(total, need), limits);
  const evict: QueuedTx[] = [];
  for (const q of [...net.queue].filter((x) => x !== replaces).sort(lowestFirst)) {
    if (feeRateCompare(q.inclusionFee, q.numOps, c.inclusionFee, c.numOps) >= 0) {
      return { kind: 'full', minFee: betterFee(c.numOps, q.inclusionFee, q.numOps) + resourceFeeOf(c) };
    }
    if (q.source === c.source) return { kind: 'full', minFee: 0n };
    evict.push(q);
    needed = subResources(needed, q.resources);
    if (!anyPositive(needed)) return { kind: 'ok', evict };
  }
  return { kind: 'full', minFee: 0n };
}

/** tryAdd after every check passed: replace, evict (banning the evicted), add. */
export function add(net: Network, c: QueuedTx, ok: Extract<CanAdd, { kind: 'ok' }>): void {
  if (ok.replaces) drop(net, ok.replaces, 'replaced', false);
  for (const q of ok.evict) {
    // TxQueueLimiter::evictTransactions: later candidates must beat the last evicted bid.
    net.laneEvictedFee = { fee: q.inclusionFee, ops: q.numOps };
    drop(net, q, 'evicted', net.latest.sequence);
  }
  net.queue.push(c);
}

/** Fees the fee source already owes for its queued transactions (AccountState::mTotalFees). */
export const queuedFeesOf = (net: Network, feeSource: string, except?: QueuedTx): bigint =>
  net.queue.reduce((sum, q) => (q !== except && q.feeSource === feeSource ? sum + q.fullFee : sum), 0n);

/**
 * getUpperBoundCloseTimeOffset (TransactionUtils.cpp): twice the expected close time of the
 * network config (ledgerTargetCloseTimeMilliseconds, LedgerManagerImpl::getExpectedLedgerCloseTime),
 * whatever --ledger-ms, plus how long ago the last ledger closed.
 */
export function upperBoundCloseTimeOffset(net: Network, lastCloseTime = net.latest.closeTime): number {
  const drift = Math.max(0, net.now() - lastCloseTime);
  return Math.floor(net.config.ledgerTargetCloseTimeMilliseconds / 1000) * EXPECTED_CLOSE_TIME_MULT + drift;
}

// ---------------------------------------------------------------------------------------------
// Ledger close

export type LedgerChoice = { included: QueuedTx[]; baseFee: bigint };

/**
 * The transactions a ledger includes and the base fee they pay: queued transactions valid for this
 * ledger, all of them if they fit in the ledger's limits, else the highest fee rates first with
 * gaps (getMostTopTxsWithinLimits), and then the lowest included fee rate is everyone's base fee
 * (computeLaneBaseFee). Those that can never be included (time or ledger bound passed, sequence
 * number used) are dropped and banned first.
 */
export function chooseForLedger(net: Network, sequence: number, closeTime: number): LedgerChoice {
  const candidates: QueuedTx[] = [];
  for (const q of [...net.queue]) {
    if (sequence < q.includeAt) continue;
    const state = validity(net, q, sequence, closeTime, 0);
    if (state === 'invalid') drop(net, q, 'expired', sequence);
    else if (state === 'valid') candidates.push(q);
  }
  const limits = maxLedgerResources(net.config);
  // Parallel Soroban phase (protocol ≥ 23): instructions are limited per cluster, so a ledger holds
  // ledgerMaxInstructions × ledgerMaxDependentTxClusters when transactions do not conflict.
  limits[1] *= net.config.ledgerMaxDependentTxClusters;
  const total = candidates.reduce((s, q) => addResources(s, q.resources), emptyResources());
  if (!anyGreater(total, limits)) return { included: candidates, baseFee: BigInt(BASE_FEE) };
  let left = limits;
  const chosen = new Set<QueuedTx>();
  for (const q of [...candidates].sort(highestFirst)) {
    if (anyGreater(q.resources, left)) continue;
    chosen.add(q);
    left = subResources(left, q.resources);
  }
  const included = candidates.filter((q) => chosen.has(q));
  const lowest = included.reduce<bigint | undefined>(
    (m, q) => (m === undefined || perOpFee(q) < m ? perOpFee(q) : m),
    undefined,
  );
  return { included, baseFee: lowest !== undefined && lowest > BigInt(BASE_FEE) ? lowest : BigInt(BASE_FEE) };
}

/**
 * After a ledger (HerderImpl::updateTransactionQueue): applied transactions leave the queue and are
 * banned (removeApplied); the others age, and at 4 ledgers are dropped and banned (shift); bans
 * older than 10 ledgers lapse; the eviction floor resets; queued transactions that became invalid
 * are banned (getInvalidTxListWithErrors with the upper close-time offset).
 */
export function afterLedger(net: Network, applied: QueuedTx[], sequence: number, closeTime: number): void {
  const appliedSet = new Set(applied);
  net.queue = net.queue.filter((q) => !appliedSet.has(q));
  for (const q of applied) net.bans.set(q.fullHash, sequence + BAN_LEDGERS);
  for (const [h, until] of net.bans) if (until <= sequence) net.bans.delete(h);
  for (const q of [...net.queue]) {
    if (sequence < q.includeAt) continue;
    q.age += 1;
    if (q.age >= QUEUE_TIMEOUT_LEDGERS) drop(net, q, 'evicted', sequence);
  }
  net.laneEvictedFee = undefined;
  const offset = upperBoundCloseTimeOffset(net, closeTime);
  for (const q of [...net.queue]) {
    if (q.traffic && sequence + 1 < q.includeAt) continue;
    if (validity(net, q, sequence + 1, closeTime, offset) === 'invalid') drop(net, q, 'expired', sequence);
  }
}

/**
 * Whether a queued transaction can go into ledger `ledgerSeq` closing at (or, with `upperOffset`,
 * by) `closeTime`: TransactionFrame::isTooLate (maxTime < closeTime + offset; maxLedger ≤ ledger),
 * isTooEarly (minLedger), the sequence number (a used one is invalid; a later one waits, as the
 * traffic control queues chains of them).
 */
function validity(
  net: Network,
  q: QueuedTx,
  ledgerSeq: number,
  closeTime: number,
  upperOffset: number,
): 'valid' | 'wait' | 'invalid' {
  if (q.maxTime !== 0 && q.maxTime < closeTime + upperOffset) return 'invalid';
  if (q.maxLedger !== 0 && q.maxLedger <= ledgerSeq) return 'invalid';
  if (q.minLedger > ledgerSeq || q.minTime > closeTime) return 'wait';
  const account = net.state.get(keyId(accountKey(q.source)));
  if (!account) return 'invalid';
  const next = seqOf(account.data) + 1n;
  if (q.seq < next) return 'invalid';
  return q.seq > next ? 'wait' : 'valid';
}
