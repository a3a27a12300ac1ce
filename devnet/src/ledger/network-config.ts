// The Soroban network configuration the devnet runs with: the ConfigSettingEntry values that
// validators vote in, read from stellar-core soroban-settings/testnet_settings_upgrade.json (the
// protocol-28 testnet settings committed 2026-07-28; mainnet's protocol-27 compute, IO, size and
// fee values are the same, soroban-rpc-notes §6.3). stellar-core reads them through
// src/ledger/NetworkConfig.cpp (SorobanNetworkConfig); the host and simulation through
// rs-soroban-env soroban-simulation/src/network_config.rs.
//
// Tests may shorten the state-archival minimums (--min-persistent-ttl, --min-temporary-ttl) and the
// per-ledger transaction count (--ledger-max-tx-count); everything else is the network's.

export type SorobanNetworkConfig = {
  // contract_execution_lanes / contract_compute_v0 / contract_ledger_cost_v0 / contract_bandwidth_v0:
  // per-ledger limits (SorobanNetworkConfig::maxLedgerResources).
  ledgerMaxTxCount: number;
  ledgerMaxInstructions: number;
  /** contract_parallel_compute_v0: clusters of a stage that run in parallel. */
  ledgerMaxDependentTxClusters: number;
  ledgerMaxTxsSizeBytes: number;
  ledgerMaxDiskReadEntries: number;
  ledgerMaxDiskReadBytes: number;
  ledgerMaxWriteLedgerEntries: number;
  ledgerMaxWriteBytes: number;
  // Per-transaction limits (SorobanNetworkConfig::maxSorobanTransactionResources).
  txMaxInstructions: number;
  txMaxDiskReadEntries: number;
  txMaxDiskReadBytes: number;
  txMaxWriteLedgerEntries: number;
  txMaxWriteBytes: number;
  txMaxFootprintEntries: number;
  txMaxSizeBytes: number;
  txMaxContractEventsSizeBytes: number;
  // Fee rates (rs-soroban-env fees.rs FeeConfiguration).
  feePerInstructionIncrement: number;
  feeDiskReadLedgerEntry: number;
  feeDiskRead1Kb: number;
  feeWriteLedgerEntry: number;
  feeWrite1Kb: number;
  feeHistorical1Kb: number;
  feeContractEvents1Kb: number;
  feeTxSize1Kb: number;
  // Rent (fees.rs RentWriteFeeConfiguration, RentFeeConfiguration).
  sorobanStateTargetSizeBytes: number;
  rentFee1KbSorobanStateSizeLow: number;
  rentFee1KbSorobanStateSizeHigh: number;
  sorobanStateRentFeeGrowthFactor: number;
  persistentRentRateDenominator: number;
  tempRentRateDenominator: number;
  // state_archival (StateArchivalSettings).
  maxEntryTtl: number;
  minTemporaryTtl: number;
  minPersistentTtl: number;
  // scp_timing.
  ledgerTargetCloseTimeMilliseconds: number;
};

export const NETWORK_CONFIG: Readonly<SorobanNetworkConfig> = Object.freeze({
  ledgerMaxTxCount: 2000,
  ledgerMaxInstructions: 580_000_000,
  ledgerMaxDependentTxClusters: 2,
  ledgerMaxTxsSizeBytes: 266_240,
  ledgerMaxDiskReadEntries: 1000,
  ledgerMaxDiskReadBytes: 400_000,
  ledgerMaxWriteLedgerEntries: 1000,
  ledgerMaxWriteBytes: 286_720,
  txMaxInstructions: 400_000_000,
  txMaxDiskReadEntries: 200,
  txMaxDiskReadBytes: 200_000,
  txMaxWriteLedgerEntries: 200,
  txMaxWriteBytes: 132_096,
  txMaxFootprintEntries: 400,
  txMaxSizeBytes: 132_096,
  txMaxContractEventsSizeBytes: 16_384,
  feePerInstructionIncrement: 7,
  feeDiskReadLedgerEntry: 1563,
  feeDiskRead1Kb: 447,
  feeWriteLedgerEntry: 2500,
  feeWrite1Kb: 875,
  feeHistorical1Kb: 4059,
  feeContractEvents1Kb: 5000,
  feeTxSize1Kb: 406,
  sorobanStateTargetSizeBytes: 4_000_000_000,
  rentFee1KbSorobanStateSizeLow: -17_000,
  rentFee1KbSorobanStateSizeHigh: 10_000,
  sorobanStateRentFeeGrowthFactor: 5000,
  persistentRentRateDenominator: 1215,
  tempRentRateDenominator: 2430,
  maxEntryTtl: 3_110_400,
  minTemporaryTtl: 720,
  minPersistentTtl: 120_960,
  ledgerTargetCloseTimeMilliseconds: 5000,
});

/** What tests may change; everything else stays the network's. */
export type NetworkConfigOverrides = Partial<
  Pick<SorobanNetworkConfig, 'minPersistentTtl' | 'minTemporaryTtl' | 'ledgerMaxTxCount'>
>;

export function networkConfig(overrides: NetworkConfigOverrides = {}): SorobanNetworkConfig {
  const cfg = { ...NETWORK_CONFIG };
  for (const [name, value] of Object.entries(overrides) as [keyof NetworkConfigOverrides, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
    cfg[name] = value;
  }
  if (cfg.minPersistentTtl > cfg.maxEntryTtl || cfg.minTemporaryTtl > cfg.maxEntryTtl) {
    throw new Error(`minimum TTLs must not exceed the max entry TTL (${cfg.maxEntryTtl})`);
  }
  return cfg;
}

/**
 * Core's SorobanNetworkConfig::maxLedgerResources as the resource vector the surge-pricing
 * queue uses (SurgePricingUtils: OPERATIONS, INSTRUCTIONS, TX_BYTE_SIZE, DISK_READ_BYTES,
 * WRITE_BYTES, READ_LEDGER_ENTRIES, WRITE_LEDGER_ENTRIES).
 */
export type Resource = [number, number, number, number, number, number, number];

export const RESOURCE_NAMES = [
  'operations',
  'instructions',
  'txBytes',
  'diskReadBytes',
  'writeBytes',
  'diskReadEntries',
  'writeEntries',
] as const;

export function maxLedgerResources(cfg: SorobanNetworkConfig): Resource {
  return [
    cfg.ledgerMaxTxCount,
    cfg.ledgerMaxInstructions,
    cfg.ledgerMaxTxsSizeBytes,
    cfg.ledgerMaxDiskReadBytes,
    cfg.ledgerMaxWriteBytes,
    cfg.ledgerMaxDiskReadEntries,
    cfg.ledgerMaxWriteLedgerEntries,
  ];
}

export const addResources = (a: Resource, b: Resource): Resource => a.map((v, i) => v + b[i]) as Resource;
export const subResources = (a: Resource, b: Resource): Resource => a.map((v, i) => Math.max(0, v - b[i])) as Resource;
export const scaleResources = (a: Resource, k: number): Resource => a.map((v) => v * k) as Resource;
/** Resource::anyGreater: some component of `a` is above `b`'s. */
export const anyGreater = (a: Resource, b: Resource): boolean => a.some((v, i) => v > b[i]);
export const anyPositive = (a: Resource): boolean => a.some((v) => v > 0);
export const emptyResources = (): Resource => [0, 0, 0, 0, 0, 0, 0];
