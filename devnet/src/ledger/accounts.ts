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

/** A copy with a new balance and/or sequence; stored entries are never mutated (XDR values are read-only). */
export function withAccount(data: xdr.LedgerEntryData, change: { balance?: bigint; seqNum?: bigint }): xdr.LedgerEntryData {
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
      ext: a.ext,
    }),
  );
}
