// Classic account entries: just enough of AccountEntry for the SDK, for fee
// charging and sequence numbers, and for checking signatures against signers.
import { xdr } from '@stellar/stellar-sdk';
import { accountIdOf } from '../host/addresses.ts';

export const STROOPS_PER_XLM = 10_000_000n;
export const FRIENDBOT_XLM = 10_000n * STROOPS_PER_XLM;
/** Two base reserves of 0.5 XLM: an account's minimum balance with no sub-entries. */
export const MIN_BALANCE = 2n * 5_000_000n;

export function accountEntry(g: string, balance: bigint, seqNum: bigint): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: accountIdOf(g),
      balance,
      seqNum,
      numSubEntries: 0,
      inflationDest: null,
      flags: 0,
      homeDomain: '',
      // master weight 1, low/medium/high thresholds 0: a fresh account's defaults
      thresholds: new Uint8Array([1, 0, 0, 0]),
      signers: [],
      ext: xdr.AccountEntryExt.v0(),
    }),
  );
}

export const accountOf = (data: xdr.LedgerEntryData): xdr.AccountEntry => xdr.expectUnionVariant(data, 'account').account;
export const balanceOf = (data: xdr.LedgerEntryData): bigint => accountOf(data).balance;
export const seqOf = (data: xdr.LedgerEntryData): bigint => accountOf(data).seqNum;

export type AccountChange = {
  balance?: bigint;
  seqNum?: bigint;
  /** Ledger and close time of a sequence-number bump: recorded in AccountEntryExtensionV3 since protocol 19. */
  seqBump?: { ledger: number; closeTime: number };
};

/** A copy with a new balance and/or sequence; stored entries are never mutated (XDR values are read-only). */
export function withAccount(data: xdr.LedgerEntryData, change: AccountChange): xdr.LedgerEntryData {
  const a = accountOf(data);
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: a.accountId,
      balance: change.balance ?? a.balance,
      seqNum: change.seqNum ?? a.seqNum,
      numSubEntries: a.numSubEntries,
      inflationDest: a.inflationDest,
      flags: a.flags,
      homeDomain: a.homeDomain,
      thresholds: a.thresholds,
      signers: a.signers,
      ext: change.seqBump ? withSeqLedger(a, change.seqBump.ledger, change.seqBump.closeTime) : a.ext,
    }),
  );
}

/**
 * stellar-core's maybeUpdateAccountOnLedgerSeqUpdate (src/transactions/TransactionUtils.cpp): from
 * protocol 19 a sequence bump writes seqLedger/seqTime into AccountEntryExtensionV3, creating the
 * v1 (zero liabilities) → v2 (no sponsorships) → v3 chain on first use
 * (prepareAccountEntryExtensionV1/V2/V3).
 */
function withSeqLedger(a: xdr.AccountEntry, ledger: number, closeTime: number): xdr.AccountEntryExt {
  const v1 = a.ext.type === 'v1' ? a.ext.v1 : undefined;
  const v2 = v1?.ext.type === 'v2' ? v1.ext.v2 : undefined;
  const v3 = new xdr.AccountEntryExtensionV3({ ext: xdr.ExtensionPoint.v0(), seqLedger: ledger, seqTime: BigInt(closeTime) });
  return xdr.AccountEntryExt.v1(
    new xdr.AccountEntryExtensionV1({
      liabilities: v1?.liabilities ?? new xdr.Liabilities({ buying: 0n, selling: 0n }),
      ext: xdr.AccountEntryExtensionV1Ext.v2(
        new xdr.AccountEntryExtensionV2({
          numSponsored: v2?.numSponsored ?? 0,
          numSponsoring: v2?.numSponsoring ?? 0,
          signerSponsoringIDs: v2?.signerSponsoringIDs ?? a.signers.map(() => null),
          ext: xdr.AccountEntryExtensionV2Ext.v3(v3),
        }),
      ),
    }),
  );
}
