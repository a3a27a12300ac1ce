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

const zero32 = () => Buffer.alloc(32);

export function buildLedger(sequence: number, closeTime: number, previousHash: Buffer): ClosedLedger {
  const header = new xdr.LedgerHeader({
    ledgerVersion: PROTOCOL_VERSION,
    previousLedgerHash: previousHash,
    scpValue: new xdr.StellarValue({
      txSetHash: zero32(),
      closeTime: xdr.Uint64.fromString(String(closeTime)),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: zero32(),
    bucketListHash: zero32(),
    ledgerSeq: sequence,
    totalCoins: xdr.Int64.fromString('1000000000000000000'),
    feePool: xdr.Int64.fromString('0'),
    inflationSeq: 0,
    idPool: xdr.Uint64.fromString('0'),
    baseFee: 100,
    baseReserve: 5_000_000,
    maxTxSetSize: 1000,
    skipList: [zero32(), zero32(), zero32(), zero32()],
    ext: new xdr.LedgerHeaderExt(0),
  });
  const headerBytes = header.toXDR();
  const ledgerHash = hash(headerBytes);
  const emptyPhase = () => new xdr.TransactionPhase(0, []);
  const meta = new xdr.LedgerCloseMeta(
    2,
    new xdr.LedgerCloseMetaV2({
      ext: new xdr.LedgerCloseMetaExt(0),
      ledgerHeader: new xdr.LedgerHeaderHistoryEntry({
        hash: ledgerHash,
        header,
        ext: new xdr.LedgerHeaderHistoryEntryExt(0),
      }),
      txSet: new xdr.GeneralizedTransactionSet(
        1,
        new xdr.TransactionSetV1({ previousLedgerHash: previousHash, phases: [emptyPhase(), emptyPhase()] }),
      ),
      txProcessing: [],
      upgradesProcessing: [],
      scpInfo: [],
      totalByteSizeOfLiveSorobanState: xdr.Uint64.fromString('0'),
      evictedKeys: [],
    }),
  );
  return {
    sequence,
    closeTime,
    hash: ledgerHash,
    headerXdr: headerBytes.toString('base64'),
    metadataXdr: meta.toXDR('base64'),
  };
}
