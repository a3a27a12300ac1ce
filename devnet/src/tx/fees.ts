// Resource and rent fees as rs-soroban-env soroban-env-host/src/fees.rs computes them
// (compute_transaction_resource_fee, compute_rent_write_fee_per_1kb, compute_rent_fee), with the
// rates of the network configuration (ledger/network-config.ts), and the per-transaction limits
// stellar-core checks (TransactionFrame::checkSorobanResources).
import { NETWORK_CONFIG, type SorobanNetworkConfig } from '../ledger/network-config.ts';

export const BASE_FEE = 100;

/** fees.rs TX_BASE_RESULT_SIZE and TTL_ENTRY_SIZE. */
const TX_BASE_RESULT_SIZE = 300;
const TTL_ENTRY_SIZE = 48;
/** fees.rs MINIMUM_RENT_WRITE_FEE_PER_1KB. */
const MINIMUM_RENT_WRITE_FEE_PER_1KB = 1000;

export type Resources = {
  instructions: number;
  diskReadEntries: number;
  diskReadBytes: number;
  writeEntries: number;
  writeBytes: number;
  txSizeBytes: number;
};

const divCeil = (a: number, b: number) => Math.ceil(a / Math.max(1, b));
const perIncrement = (value: number, rate: number, increment: number) => divCeil(value * rate, increment);
const kib = (bytes: number, perKib: number) => perIncrement(bytes, perKib, 1024);

/** The non-refundable part of compute_transaction_resource_fee. */
export function nonRefundableFee(r: Resources, cfg: SorobanNetworkConfig = NETWORK_CONFIG): number {
  return (
    perIncrement(r.instructions, cfg.feePerInstructionIncrement, 10_000) +
    r.diskReadEntries * cfg.feeDiskReadLedgerEntry +
    r.writeEntries * cfg.feeWriteLedgerEntry +
    kib(r.diskReadBytes, cfg.feeDiskRead1Kb) +
    kib(r.writeBytes, cfg.feeWrite1Kb) +
    kib(r.txSizeBytes + TX_BASE_RESULT_SIZE, cfg.feeHistorical1Kb) +
    kib(r.txSizeBytes, cfg.feeTxSize1Kb)
  );
}

/** The refundable part of compute_transaction_resource_fee: contract events and return value. */
export const eventsFee = (eventBytes: number, cfg: SorobanNetworkConfig = NETWORK_CONFIG): number =>
  kib(eventBytes, cfg.feeContractEvents1Kb);

/**
 * compute_rent_write_fee_per_1kb: the rent rate follows the size of the live Soroban state,
 * linear from `low` at size 0 to `high` at the target size, never below 1000 stroops per KiB.
 * (Core averages the state size over a window of samples; the devnet uses its current size.)
 */
export function rentWriteFeePer1Kb(stateSizeBytes: number, cfg: SorobanNetworkConfig = NETWORK_CONFIG): number {
  const multiplier = Math.max(0, cfg.rentFee1KbSorobanStateSizeHigh - cfg.rentFee1KbSorobanStateSizeLow);
  let fee: number;
  if (stateSizeBytes < cfg.sorobanStateTargetSizeBytes) {
    fee = divCeil(multiplier * stateSizeBytes, cfg.sorobanStateTargetSizeBytes) + cfg.rentFee1KbSorobanStateSizeLow;
  } else {
    const past = stateSizeBytes - cfg.sorobanStateTargetSizeBytes;
    fee =
      cfg.rentFee1KbSorobanStateSizeHigh +
      divCeil(multiplier * past * cfg.sorobanStateRentFeeGrowthFactor, cfg.sorobanStateTargetSizeBytes);
  }
  return Math.max(fee, MINIMUM_RENT_WRITE_FEE_PER_1KB);
}

/** fees.rs LedgerEntryRentChange: an entry with a TTL before and after a transaction. */
export type RentChange = {
  persistent: boolean;
  code: boolean;
  /** 0 for a new (or restored) entry. */
  oldSize: number;
  newSize: number;
  /** 0 for a new (or restored) entry. */
  oldLiveUntil: number;
  newLiveUntil: number;
};

/**
 * compute_rent_fee: each entry pays for the ledgers its TTL grows by at its new size, and for a size
 * increase over the ledgers already paid for; code entries a third; every extended entry also writes
 * its TTL entry (fee_per_write_entry plus 48 bytes at fee_per_write_1kb).
 */
export function rentFee(
  changes: RentChange[],
  ledgerSeq: number,
  stateSizeBytes: number,
  cfg: SorobanNetworkConfig = NETWORK_CONFIG,
): number {
  const perRent1Kb = rentWriteFeePer1Kb(stateSizeBytes, cfg);
  const forSize = (persistent: boolean, size: number, ledgers: number) =>
    divCeil(
      size * perRent1Kb * ledgers,
      1024 * (persistent ? cfg.persistentRentRateDenominator : cfg.tempRentRateDenominator),
    );
  let fee = 0;
  let extended = 0;
  for (const c of changes) {
    const isNew = c.oldSize === 0 && c.oldLiveUntil === 0;
    let entryFee = 0;
    const before = isNew ? ledgerSeq - 1 : c.oldLiveUntil;
    if (c.newLiveUntil >= before) entryFee += forSize(c.persistent, c.newSize, c.newLiveUntil - before);
    if (!isNew && c.oldLiveUntil >= ledgerSeq && c.newSize >= c.oldSize) {
      entryFee += forSize(c.persistent, c.newSize - c.oldSize, c.oldLiveUntil - ledgerSeq + 1);
    }
    fee += c.code ? divCeil(entryFee, 3) : entryFee;
    if (c.oldLiveUntil < c.newLiveUntil) extended += 1;
  }
  return fee + cfg.feeWriteLedgerEntry * extended + kib(TTL_ENTRY_SIZE * extended, cfg.feeWrite1Kb);
}

/**
 * e2e_invoke.rs extract_rent_changes: only entries whose TTL grows or whose size grows take part.
 */
export const rentRelevant = (c: RentChange): boolean => c.oldLiveUntil < c.newLiveUntil || c.oldSize < c.newSize;

/** TransactionFrame::checkSorobanResources: declared resources within the per-transaction limits. */
export function exceedsLimits(
  r: Resources,
  footprintEntries: number,
  cfg: SorobanNetworkConfig = NETWORK_CONFIG,
): boolean {
  return (
    r.instructions > cfg.txMaxInstructions ||
    r.diskReadEntries > cfg.txMaxDiskReadEntries ||
    r.diskReadBytes > cfg.txMaxDiskReadBytes ||
    r.writeEntries > cfg.txMaxWriteLedgerEntries ||
    r.writeBytes > cfg.txMaxWriteBytes ||
    r.txSizeBytes > cfg.txMaxSizeBytes ||
    footprintEntries > cfg.txMaxFootprintEntries
  );
}
