// POST /control/trustline and the trustline part of POST /control/fund: a holder's USDC
// trustline created, changed or removed directly in the ledger state, by the rules a ChangeTrust
// operation (stellar-core src/transactions/ChangeTrustOpFrame.cpp `doApply`) and the issuer's
// SetTrustLineFlags / the SAC's `set_authorized` (rs-soroban-env balance.rs
// `set_trustline_authorization`) follow. Like fund, it writes outside any ledger: no transaction,
// no meta; getLedgerEntries shows the entry at once.
import { StrKey } from '@stellar/stellar-sdk';
import {
  accountMinBalance,
  AUTHORIZED_FLAG,
  AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG,
  I64_MAX,
  openTrustline,
  readTrustline,
  trustlineKey,
  withSubEntries,
  withTrustline,
} from '../contracts/classic.ts';
import { BASE_RESERVE_STROOPS } from '../ledger/header.ts';
import { accountKey, keyId } from '../ledger/keys.ts';
import type { Network } from '../network/network.ts';

export class TrustlineError extends Error {}

export type TrustlineRequest = {
  account: string;
  /** Raw units (decimal string), 1 … 2^63−1; default: unlimited when created, unchanged otherwise. */
  limit?: bigint;
  /** AUTHORIZED_FLAG; default: true when created, unchanged otherwise. */
  authorized?: boolean;
  /** Delete the trustline (ChangeTrust with limit 0): only with a zero balance. */
  remove?: boolean;
};

export type TrustlineView = { balance: string; limit: string; flags: number; authorized: boolean };
export type TrustlineAnswer = { account: string; asset: string; trustline: TrustlineView | null };

export function parseLimit(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  const s = String(value);
  if (!/^\d+$/.test(s) || BigInt(s) < 1n || BigInt(s) > I64_MAX) {
    throw new TrustlineError('limit must be a decimal string of raw units from 1 to 9223372036854775807');
  }
  return BigInt(s);
}

export function parseTrustlineRequest(b: Record<string, unknown>): TrustlineRequest {
  if (b.authorized !== undefined && typeof b.authorized !== 'boolean')
    throw new TrustlineError('authorized must be true or false');
  if (b.remove !== undefined && typeof b.remove !== 'boolean') throw new TrustlineError('remove must be true or false');
  const req: TrustlineRequest = { account: String(b.account ?? '') };
  const limit = parseLimit(b.limit);
  if (limit !== undefined) req.limit = limit;
  if (b.authorized !== undefined) req.authorized = b.authorized as boolean;
  if (b.remove !== undefined) req.remove = b.remove as boolean;
  if (req.remove && (req.limit !== undefined || req.authorized !== undefined)) {
    throw new TrustlineError('remove takes no limit or authorized');
  }
  return req;
}

export function viewTrustline(net: Network, account: string): TrustlineAnswer {
  const { asset } = net.genesis;
  const stored = net.state.get(keyId(trustlineKey(account, asset)));
  const t = stored ? readTrustline(stored.data) : undefined;
  return {
    account,
    asset: `${asset.code}:${asset.issuer}`,
    trustline: t
      ? {
          balance: t.balance.toString(),
          limit: t.limit.toString(),
          flags: t.flags,
          authorized: (t.flags & AUTHORIZED_FLAG) !== 0,
        }
      : null,
  };
}

export function changeTrustline(net: Network, req: TrustlineRequest): TrustlineAnswer {
  const { asset } = net.genesis;
  const { account } = req;
  if (!StrKey.isValidEd25519PublicKey(account)) {
    throw new TrustlineError('account must be a G… account id (C… holders keep contract-data balances, no trustline)');
  }
  // ChangeTrustOpFrame: CHANGE_TRUST_SELF_NOT_ALLOWED since protocol 3.
  if (account === asset.issuer)
    throw new TrustlineError('the issuer holds no trustline for its own asset (CHANGE_TRUST_SELF_NOT_ALLOWED)');
  const accountId = keyId(accountKey(account));
  const acc = net.state.get(accountId);
  if (!acc) throw new TrustlineError(`account ${account} does not exist: fund it first`);
  const seq = net.latest.sequence;
  const tlId = keyId(trustlineKey(account, asset));
  const stored = net.state.get(tlId);

  if (req.remove) {
    if (!stored) return viewTrustline(net, account);
    const t = readTrustline(stored.data);
    // Limit 0 is below the minimum limit (balance + buying liabilities) of a non-empty line.
    if (t.balance + t.buying > 0n) {
      throw new TrustlineError(
        `the trustline holds ${t.balance} units: a trustline is removed only when empty (CHANGE_TRUST_INVALID_LIMIT)`,
      );
    }
    net.state.delete(tlId);
    net.state.set(accountId, { data: withSubEntries(acc.data, -1), lastModified: seq });
    return viewTrustline(net, account);
  }

  if (!stored) {
    // New trust line: needs one more base reserve (createEntryWithPossibleSponsorship → LOW_RESERVE).
    const reserve = BigInt(BASE_RESERVE_STROOPS);
    const a = acc.data;
    if (a.type === 'account' && a.account.balance < accountMinBalance(a, reserve) + reserve) {
      throw new TrustlineError('the account cannot cover one more base reserve (CHANGE_TRUST_LOW_RESERVE)');
    }
    // Unauthorized at creation is what ChangeTrust gives when the issuer has AUTH_REQUIRED: no flags.
    const flags = (req.authorized ?? true) ? AUTHORIZED_FLAG : 0;
    openTrustline(net.state, seq, account, asset, { limit: req.limit ?? I64_MAX, flags });
    return viewTrustline(net, account);
  }

  const t = readTrustline(stored.data);
  let data = stored.data;
  if (req.limit !== undefined) {
    // getMinimumLimit: the balance plus buying liabilities.
    if (req.limit < t.balance + t.buying) {
      throw new TrustlineError(
        `limit ${req.limit} is below the trustline's balance ${t.balance} (CHANGE_TRUST_INVALID_LIMIT)`,
      );
    }
    data = withTrustline(data, { limit: req.limit });
  }
  if (req.authorized !== undefined && ((t.flags & AUTHORIZED_FLAG) !== 0) !== req.authorized) {
    // set_trustline_authorization: deauthorizing keeps AUTHORIZED_TO_MAINTAIN_LIABILITIES.
    const flags = req.authorized
      ? (t.flags & ~AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG) | AUTHORIZED_FLAG
      : (t.flags & ~AUTHORIZED_FLAG) | AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG;
    data = withTrustline(data, { flags });
  }
  if (data !== stored.data) net.state.set(tlId, { data, lastModified: seq });
  return viewTrustline(net, account);
}
