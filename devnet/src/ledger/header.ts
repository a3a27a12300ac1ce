// LedgerHeader and LedgerCloseMeta for getLatestLedger: SDK ≥ 15.1 decodes both on
// every call, so they must be complete and valid, even though nobody reads most fields.
import { hash, xdr } from '@stellar/stellar-sdk';

export const PROTOCOL_VERSION = 23;

export type ClosedLedger = {
  sequence: number;
  closeTime: number;
  hash: Buffer;
  headerXdr: string;
  metadataXdr: string;
};

const zero32 = () => new Uint8Array(32);

export function buildLedger(sequence: number, closeTime: number, previousHash: Uint8Array): ClosedLedger {
  const header = new xdr.LedgerHeader({
    ledgerVersion: PROTOCOL_VERSION,
    previousLedgerHash: previousHash,
    scpValue: new xdr.StellarValue({
      txSetHash: zero32(),
      closeTime: BigInt(closeTime),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: zero32(),
    bucketListHash: zero32(),
    ledgerSeq: sequence,
    totalCoins: 1000000000000000000n,
    feePool: 0n,
    inflationSeq: 0,
    idPool: 0n,
    baseFee: 100,
    baseReserve: 5_000_000,
    maxTxSetSize: 1000,
    skipList: [zero32(), zero32(), zero32(), zero32()],
    ext: xdr.LedgerHeaderExt.v0(),
  });
  const headerBytes = header.toXdr();
  const ledgerHash = Buffer.from(hash(headerBytes));
  const emptyPhase = () => xdr.TransactionPhase.v0Components([]);
  const meta = xdr.LedgerCloseMeta.v2(
    new xdr.LedgerCloseMetaV2({
      ext: xdr.LedgerCloseMetaExt.v0(),
      ledgerHeader: new xdr.LedgerHeaderHistoryEntry({
        hash: ledgerHash,
        header,
        ext: xdr.LedgerHeaderHistoryEntryExt.v0(),
      }),
      txSet: xdr.GeneralizedTransactionSet.v1TxSet(
        new xdr.TransactionSetV1({ previousLedgerHash: previousHash, phases: [emptyPhase(), emptyPhase()] }),
      ),
      txProcessing: [],
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
    metadataXdr: meta.toXdr('base64'),
  };
}
