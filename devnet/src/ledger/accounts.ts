// Classic account entries: just enough of AccountEntry for the SDK, for fee
// charging and sequence numbers, and for checking signatures against signers.
import { xdr } from '@stellar/stellar-sdk';
import { accountIdOf } from './addresses.ts';

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

export const accountOf = (data: xdr.LedgerEntryData): xdr.AccountEntry =>
  xdr.expectUnionVariant(data, 'account').account;
export const balanceOf = (data: xdr.LedgerEntryData): bigint => accountOf(data).balance;
export const seqOf = (data: xdr.LedgerEntryData): bigint => accountOf(data).seqNum;

export type AccountChange = {
  balance?: bigint;
  seqNum?: bigint;
  /** Ledger and close time of a sequence-number bump: recorded in AccountEntryExtensionV3 since protocol 19. */
  seqBump?: { ledger: number; closeTime: number };
};

/** The AccountEntry fields a copy may change; the rest are kept. */
export type AccountPatch = Partial<Pick<xdr.AccountEntry, 'balance' | 'seqNum' | 'numSubEntries' | 'flags' | 'ext'>>;

/** A copy of an account entry with some fields changed; stored entries are never mutated (XDR values are read-only). */
export function accountWith(a: xdr.AccountEntry, patch: AccountPatch): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: a.accountId,
      balance: patch.balance ?? a.balance,
      seqNum: patch.seqNum ?? a.seqNum,
      numSubEntries: patch.numSubEntries ?? a.numSubEntries,
      inflationDest: a.inflationDest,
      flags: patch.flags ?? a.flags,
      homeDomain: a.homeDomain,
      thresholds: a.thresholds,
      signers: a.signers,
      ext: patch.ext ?? a.ext,
    }),
  );
}

/** The account's AccountEntryExtensionV3, if its ext chain reaches v3. */
export function accountExtV3Of(a: xdr.AccountEntry): xdr.AccountEntryExtensionV3 | undefined {
  const v2 = a.ext.type === 'v1' && a.ext.v1.ext.type === 'v2' ? a.ext.v1.ext.v2 : undefined;
  return v2?.ext.type === 'v3' ? v2.ext.v3 : undefined;
}

/**
 * The account's ext as a v1 → v2 → v3 chain ending in the given seqLedger/seqTime: liabilities and
 * sponsorships kept where present, else zero liabilities, no sponsorships, one null sponsor per
 * signer (stellar-core prepareAccountEntryExtensionV1/V2/V3; soroban-simulation's
 * snapshot_source.rs `update_account_entry`).
 */
export function accountExtV3(a: xdr.AccountEntry, seqLedger: number, seqTime: bigint): xdr.AccountEntryExt {
  const v1 = a.ext.type === 'v1' ? a.ext.v1 : undefined;
  const v2 = v1?.ext.type === 'v2' ? v1.ext.v2 : undefined;
  const v3 = new xdr.AccountEntryExtensionV3({ ext: xdr.ExtensionPoint.v0(), seqLedger, seqTime });
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

/**
 * A copy with a new balance and/or sequence. From protocol 19 a sequence bump also writes
 * seqLedger/seqTime into AccountEntryExtensionV3, creating the v1 → v2 → v3 chain on first use
 * (stellar-core's maybeUpdateAccountOnLedgerSeqUpdate, src/transactions/TransactionUtils.cpp).
 */
export function withAccount(data: xdr.LedgerEntryData, change: AccountChange): xdr.LedgerEntryData {
  const a = accountOf(data);
  return accountWith(a, {
    balance: change.balance,
    seqNum: change.seqNum,
    ext: change.seqBump ? accountExtV3(a, change.seqBump.ledger, BigInt(change.seqBump.closeTime)) : undefined,
  });
}
