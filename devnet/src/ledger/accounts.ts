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
      balance: xdr.Int64.fromString(balance.toString()),
      seqNum: xdr.Int64.fromString(seqNum.toString()),
      numSubEntries: 0,
      inflationDest: null,
      flags: 0,
      homeDomain: '',
      // master weight 1, low/medium/high thresholds 0: a fresh account's defaults
      thresholds: Buffer.from([1, 0, 0, 0]),
      signers: [],
      ext: new xdr.AccountEntryExt(0),
    }),
  );
}

export const balanceOf = (data: xdr.LedgerEntryData): bigint => BigInt(data.account().balance().toString());
export const seqOf = (data: xdr.LedgerEntryData): bigint => BigInt(data.account().seqNum().toString());

/** A copy with a new balance and/or sequence; stored entries are never mutated. */
export function withAccount(data: xdr.LedgerEntryData, change: { balance?: bigint; seqNum?: bigint }): xdr.LedgerEntryData {
  const copy = xdr.LedgerEntryData.fromXDR(data.toXDR());
  const a = copy.account();
  if (change.balance !== undefined) a.balance(xdr.Int64.fromString(change.balance.toString()));
  if (change.seqNum !== undefined) a.seqNum(xdr.Int64.fromString(change.seqNum.toString()));
  return copy;
}
