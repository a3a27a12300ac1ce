// Closed ledgers as a protocol-27 node emits them: the LedgerHeader that getLatestLedger
// serves, and LedgerCloseMeta arm 2 (LedgerCloseMetaV2, what protocol-23+ nodes emit)
// holding the ledger's transaction set and one TransactionResultMetaV1 per transaction,
// in apply order. SDK ≥ 15.1 decodes both on every getLatestLedger call.
import { hash, xdr } from '@stellar/stellar-sdk';

export const PROTOCOL_VERSION = 27;
export const BASE_FEE_STROOPS = 100;
export const BASE_RESERVE_STROOPS = 5_000_000;

/** One transaction of a ledger: its envelope as submitted and its processing record. */
export type LedgerTx = {
  hash: string;
  envelope: xdr.TransactionEnvelope;
  processing: xdr.TransactionResultMetaV1;
};

export type ClosedLedger = {
  sequence: number;
  closeTime: number;
  hash: Buffer;
  /** The bare LedgerHeader (getLatestLedger). */
  headerXdr: string;
  /** LedgerHeaderHistoryEntry (getLedgers). */
  headerEntryXdr: string;
  /** LedgerCloseMeta (getLatestLedger, getLedgers). */
  metadataXdr: string;
  /** Hashes of the transactions applied in this ledger, in apply order. */
  txHashes: string[];
};

const zero32 = () => new Uint8Array(32);
const byHash = (a: LedgerTx, b: LedgerTx) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);

/**
 * The generalized transaction set (stellar-core src/herder/TxSetFrame.cpp): phase 0 classic
 * (v0Components, empty here: the devnet runs no classic transactions), phase 1 Soroban as a
 * parallel component (protocol ≥ 23, CAP-63). With transactions: the phase's base fee (the ledger
 * base fee, or under surge pricing the lowest included fee rate: applySurgePricing,
 * computeLaneBaseFee) and one stage holding one cluster, its envelopes in hash order
 * (TxSetUtils::sortParallelTxsInHashOrder); without: no base fee and no stages, as core writes an
 * empty Soroban phase.
 */
function txSet(previousHash: Uint8Array, txs: LedgerTx[], baseFee: bigint): xdr.GeneralizedTransactionSet {
  const soroban = new xdr.ParallelTxsComponent({
    baseFee: txs.length > 0 ? baseFee : null,
    executionStages: txs.length > 0 ? [[[...txs].sort(byHash).map((t) => t.envelope)]] : [],
  });
  return xdr.GeneralizedTransactionSet.v1TxSet(
    new xdr.TransactionSetV1({
      previousLedgerHash: previousHash,
      phases: [xdr.TransactionPhase.v0Components([]), xdr.TransactionPhase.parallelTxsComponent(soroban)],
    }),
  );
}

export function buildLedger(
  sequence: number,
  closeTime: number,
  previousHash: Uint8Array,
  txs: LedgerTx[] = [],
  feePool = 0n,
  sorobanBaseFee = BigInt(BASE_FEE_STROOPS),
): ClosedLedger {
  const set = txSet(previousHash, txs, sorobanBaseFee);
  // txSetHash = SHA-256 of the GeneralizedTransactionSet XDR (TxSetXDRFrame's mHash);
  // txSetResultHash = SHA-256 of the TransactionResultSet in apply order (LedgerManagerImpl).
  const resultSet = new xdr.TransactionResultSet({ results: txs.map((t) => t.processing.result) });
  const header = new xdr.LedgerHeader({
    ledgerVersion: PROTOCOL_VERSION,
    previousLedgerHash: previousHash,
    scpValue: new xdr.StellarValue({
      txSetHash: hash(set.toXdr()),
      closeTime: BigInt(closeTime),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: hash(resultSet.toXdr()),
    bucketListHash: zero32(),
    ledgerSeq: sequence,
    totalCoins: 1000000000000000000n,
    feePool,
    inflationSeq: 0,
    idPool: 0n,
    baseFee: BASE_FEE_STROOPS,
    baseReserve: BASE_RESERVE_STROOPS,
    maxTxSetSize: 1000,
    skipList: [zero32(), zero32(), zero32(), zero32()],
    ext: xdr.LedgerHeaderExt.v0(),
  });
  const headerBytes = header.toXdr();
  const ledgerHash = Buffer.from(hash(headerBytes));
  const entry = new xdr.LedgerHeaderHistoryEntry({
    hash: ledgerHash,
    header,
    ext: xdr.LedgerHeaderHistoryEntryExt.v0(),
  });
  const meta = xdr.LedgerCloseMeta.v2(
    new xdr.LedgerCloseMetaV2({
      ext: xdr.LedgerCloseMetaExt.v0(),
      ledgerHeader: entry,
      txSet: set,
      txProcessing: txs.map((t) => t.processing),
      upgradesProcessing: [],
      scpInfo: [],
      totalByteSizeOfLiveSorobanState: 0n,
      evictedKeys: [],
    }),
  );
  return {
    sequence,
    closeTime,
    hash: ledgerHash,
    headerXdr: Buffer.from(headerBytes).toString('base64'),
    headerEntryXdr: entry.toXdr('base64'),
    metadataXdr: meta.toXdr('base64'),
    txHashes: txs.map((t) => t.hash),
  };
}
