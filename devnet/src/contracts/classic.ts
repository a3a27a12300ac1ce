// Classic ledger entries the Stellar Asset Contract reads and writes for G… holders: the
// holder's TrustLineEntry for the asset, and the AccountEntry (sub-entry count, issuer flags).
// Flag values are Stellar-ledger-entries.x's (TrustLineFlags, AccountFlags).
import { Asset, xdr } from '@stellar/stellar-sdk';
import { accountIdOf } from '../ledger/addresses.ts';
import { accountOf, accountWith } from '../ledger/accounts.ts';
import { accountKey, keyId } from '../ledger/keys.ts';
import type { LedgerState } from '../ledger/ledger-state.ts';

/** TrustLineFlags. */
export const AUTHORIZED_FLAG = 1;
export const AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG = 2;
export const TRUSTLINE_CLAWBACK_ENABLED_FLAG = 4;
/** AccountFlags (of the issuer). */
export const AUTH_REQUIRED_FLAG = 1;
export const AUTH_REVOCABLE_FLAG = 2;
export const AUTH_CLAWBACK_ENABLED_FLAG = 8;

export const I64_MAX = 9223372036854775807n;

export type CreditAsset = { code: string; issuer: string };

const assetCache = new Map<string, xdr.TrustLineAsset>();
function trustLineAsset(a: CreditAsset): xdr.TrustLineAsset {
  const k = `${a.code}:${a.issuer}`;
  let v = assetCache.get(k);
  if (!v) {
    v = new Asset(a.code, a.issuer).toTrustLineXDRObject();
    assetCache.set(k, v);
  }
  return v;
}

const keyCache = new Map<string, xdr.LedgerKey>();
/** LedgerKey TRUSTLINE {accountID, asset} (data_helper.rs `Host::to_trustline_key`). */
export function trustlineKey(account: string, asset: CreditAsset): xdr.LedgerKey {
  const k = `${account}/${asset.code}:${asset.issuer}`;
  let v = keyCache.get(k);
  if (!v) {
    v = xdr.LedgerKey.trustline(
      new xdr.LedgerKeyTrustLine({ accountId: accountIdOf(account), asset: trustLineAsset(asset) }),
    );
    keyCache.set(k, v);
  }
  return v;
}

export type Trustline = { balance: bigint; limit: bigint; flags: number; buying: bigint; selling: bigint };

export function readTrustline(data: xdr.LedgerEntryData): Trustline {
  const tl = xdr.expectUnionVariant(data, 'trustline').trustLine;
  const liabilities = tl.ext.type === 'v1' ? tl.ext.v1.liabilities : undefined;
  return {
    balance: tl.balance,
    limit: tl.limit,
    flags: tl.flags,
    buying: liabilities?.buying ?? 0n,
    selling: liabilities?.selling ?? 0n,
  };
}

/** A new trustline entry (ext v0: no liabilities, as a fresh ChangeTrust or SAC `trust` writes it). */
export function trustlineEntry(
  account: string,
  asset: CreditAsset,
  t: { balance: bigint; limit: bigint; flags: number },
): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.trustline(
    new xdr.TrustLineEntry({
      accountId: accountIdOf(account),
      asset: trustLineAsset(asset),
      balance: t.balance,
      limit: t.limit,
      flags: t.flags,
      ext: xdr.TrustLineEntryExt.v0(),
    }),
  );
}

/** A copy of a trustline with a new balance, limit and/or flags (liabilities kept). */
export function withTrustline(
  data: xdr.LedgerEntryData,
  change: Partial<Pick<Trustline, 'balance' | 'limit' | 'flags'>>,
): xdr.LedgerEntryData {
  const tl = xdr.expectUnionVariant(data, 'trustline').trustLine;
  return xdr.LedgerEntryData.trustline(
    new xdr.TrustLineEntry({
      accountId: tl.accountId,
      asset: tl.asset,
      balance: change.balance ?? tl.balance,
      limit: change.limit ?? tl.limit,
      flags: change.flags ?? tl.flags,
      ext: tl.ext,
    }),
  );
}

/**
 * balance.rs `get_min_max_trustline_balance`: [selling liabilities, limit − buying liabilities]
 * with v1 liabilities, else [0, limit].
 */
export const trustlineRange = (t: Trustline): [bigint, bigint] => [t.selling, t.limit - t.buying];

/** A copy of an account entry with `delta` more sub-entries (a trustline created or removed). */
export function withSubEntries(data: xdr.LedgerEntryData, delta: number): xdr.LedgerEntryData {
  const a = accountOf(data);
  return accountWith(a, { numSubEntries: a.numSubEntries + delta });
}

/** A copy of an account entry with other flags (the issuer's AUTH_* flags). */
export const withAccountFlags = (data: xdr.LedgerEntryData, flags: number): xdr.LedgerEntryData =>
  accountWith(accountOf(data), { flags });

/**
 * balance.rs `get_min_max_account_balance`: (2 + sub-entries [+ sponsoring − sponsored]) base
 * reserves (+ selling liabilities) as the minimum balance.
 */
export function accountMinBalance(data: xdr.LedgerEntryData, baseReserve: bigint): bigint {
  const a = xdr.expectUnionVariant(data, 'account').account;
  let entries = 2n + BigInt(a.numSubEntries);
  let selling = 0n;
  if (a.ext.type === 'v1') {
    selling = a.ext.v1.liabilities.selling;
    if (a.ext.v1.ext.type === 'v2')
      entries += BigInt(a.ext.v1.ext.v2.numSponsoring) - BigInt(a.ext.v1.ext.v2.numSponsored);
  }
  return entries * baseReserve + selling;
}

/**
 * Opens `account`'s trustline for `asset` directly in a ledger state (genesis, controls), as a
 * successful ChangeTrust would (stellar-core ChangeTrustOpFrame::doApply, new trust line): balance
 * 0, the given limit, AUTHORIZED_FLAG when authorized, one more sub-entry on the account. The
 * caller has checked the account exists and has no trustline.
 */
export function openTrustline(
  state: LedgerState,
  seq: number,
  account: string,
  asset: CreditAsset,
  opts: { limit: bigint; flags: number },
): void {
  const accountId = keyId(accountKey(account));
  const acc = state.get(accountId)!;
  state.set(keyId(trustlineKey(account, asset)), {
    data: trustlineEntry(account, asset, { balance: 0n, limit: opts.limit, flags: opts.flags }),
    lastModified: seq,
  });
  state.set(accountId, { data: withSubEntries(acc.data, 1), lastModified: seq });
}
