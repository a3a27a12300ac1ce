// The Stellar Asset Contract of a classic credit asset ("CODE:ISSUER"), with the interface,
// storage layout, order of checks, error codes and diagnostic texts of rs-soroban-env v28
// (soroban-env-host/src/builtin_contracts/stellar_asset_contract/: contract.rs, balance.rs,
// allowance.rs, event.rs, storage_types.rs). As on the real network:
// - a G… holder's balance is its TrustLineEntry for the asset (balance, limit, flags); the issuer
//   holds no trustline and has no balance to spend or fill (transfers from / to it are mint / burn);
// - a C… holder's balance is contract data `Balance(address)` {amount, authorized, clawback};
// - the asset itself is the instance's `AssetInfo` (AlphaNum4 {asset_code, issuer}).
import { StrKey, xdr } from '@stellar/stellar-sdk';
import type { Env } from '../host/contract.ts';
import {
  addr,
  bool,
  field,
  i128,
  i64,
  readAddress,
  readI128,
  readU32,
  str,
  struct,
  sym,
  u32,
  vec,
} from '../host/scval.ts';
import { accountKey } from '../ledger/keys.ts';
import { BASE_RESERVE_STROOPS } from '../ledger/header.ts';
import type { Contract } from '../host/contract.ts';
import { decodeArgs, unknownFunction } from './args.ts';
import {
  accountMinBalance,
  AUTH_CLAWBACK_ENABLED_FLAG,
  AUTH_REQUIRED_FLAG,
  AUTH_REVOCABLE_FLAG,
  AUTHORIZED_FLAG,
  AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG,
  I64_MAX,
  readTrustline,
  TRUSTLINE_CLAWBACK_ENABLED_FLAG,
  trustlineEntry,
  trustlineKey,
  trustlineRange,
  withSubEntries,
  withTrustline,
  type CreditAsset,
} from './classic.ts';

// contract_error.rs ContractError
const OPERATION_NOT_SUPPORTED = 2;
const ACCOUNT_MISSING = 6;
const NEGATIVE_AMOUNT = 8;
const ALLOWANCE_ERROR = 9;
const BALANCE_ERROR = 10;
const BALANCE_DEAUTHORIZED = 11;
const OVERFLOW_ERROR = 12;
const TRUSTLINE_MISSING = 13;
const INSUFFICIENT_ACCOUNT_RESERVE = 14;
const TOO_MANY_ACCOUNT_SUBENTRIES = 15;

// storage_types.rs
const DAY_IN_LEDGERS = 17_280;
const INSTANCE_EXTEND_AMOUNT = 7 * DAY_IN_LEDGERS;
const INSTANCE_TTL_THRESHOLD = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
const BALANCE_EXTEND_AMOUNT = 30 * DAY_IN_LEDGERS;
const BALANCE_TTL_THRESHOLD = BALANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
/** balance.rs MAX_ACCOUNT_SUBENTRIES */
const MAX_ACCOUNT_SUBENTRIES = 1000;

const I64_MIN = -I64_MAX - 1n;
const I128_MAX = (1n << 127n) - 1n;

/** The instance storage of a credit-asset SAC named "CODE:ISSUER" (asset_info.rs, metadata.rs, admin.rs). */
export const tokenInstanceStorage = (admin: string, name: string, symbol: string): xdr.ScMapEntry[] => {
  const [code, issuer] = name.split(':');
  const assetInfo = vec([
    sym(code.length <= 4 ? 'AlphaNum4' : 'AlphaNum12'),
    struct({ asset_code: str(code), issuer: xdr.ScVal.scvBytes(StrKey.decodeEd25519PublicKey(issuer)) }),
  ]);
  // ScMap keys in host order: Symbol before Vec, then [Admin] before [AssetInfo].
  return [
    new xdr.ScMapEntry({
      key: sym('METADATA'),
      val: struct({ decimal: u32(7), name: str(name), symbol: str(symbol) }),
    }),
    new xdr.ScMapEntry({ key: vec([sym('Admin')]), val: addr(admin) }),
    new xdr.ScMapEntry({ key: vec([sym('AssetInfo')]), val: assetInfo }),
  ];
};

export const balanceKey = (id: string) => vec([sym('Balance'), addr(id)]);
export const allowanceKey = (from: string, spender: string) =>
  vec([sym('Allowance'), struct({ from: addr(from), spender: addr(spender) })]);

export const stellarAssetContract: Contract = {
  call(env, fn, args) {
    switch (fn) {
      case 'decimals':
        return u32(7);
      case 'name':
        return metadata(env, 'name');
      case 'symbol':
        return metadata(env, 'symbol');
      case 'admin':
        return addr(adminOf(env));
      case 'balance': {
        const [id] = decodeArgs(env, args, ['address']);
        extendInstance(env);
        return i128(readBalance(env, id));
      }
      case 'authorized': {
        const [id] = decodeArgs(env, args, ['address']);
        extendInstance(env);
        return bool(isAuthorized(env, id));
      }
      case 'allowance': {
        const [from, spender] = decodeArgs(env, args, ['address', 'address']);
        extendInstance(env);
        return i128(readAllowance(env, from, spender));
      }
      case 'approve': {
        const [from, spender, amount, liveUntil] = decodeArgs(env, args, ['address', 'address', 'i128', 'u32']);
        checkNonNegative(env, amount);
        env.requireAuth(from);
        extendInstance(env);
        approve(env, from, spender, amount, liveUntil);
        return xdr.ScVal.scvVoid();
      }
      case 'transfer': {
        const [from, to, amount] = decodeArgs(env, args, ['address', 'address', 'i128']);
        checkNonNegative(env, amount);
        env.requireAuth(from);
        extendInstance(env);
        spendBalance(env, from, amount);
        receiveBalance(env, to, amount);
        transferEvent(env, from, to, amount);
        return xdr.ScVal.scvVoid();
      }
      case 'transfer_from': {
        const [spender, from, to, amount] = decodeArgs(env, args, ['address', 'address', 'address', 'i128']);
        checkNonNegative(env, amount);
        env.requireAuth(spender);
        extendInstance(env);
        spendAllowance(env, from, spender, amount);
        spendBalance(env, from, amount);
        receiveBalance(env, to, amount);
        transferEvent(env, from, to, amount);
        return xdr.ScVal.scvVoid();
      }
      case 'burn': {
        const [from, amount] = decodeArgs(env, args, ['address', 'i128']);
        checkNonNegative(env, amount);
        checkNotIssuer(env, from);
        env.requireAuth(from);
        extendInstance(env);
        spendBalance(env, from, amount);
        env.emit([sym('burn'), addr(from), metadata(env, 'name')], i128(amount));
        return xdr.ScVal.scvVoid();
      }
      case 'mint': {
        const [to, amount] = decodeArgs(env, args, ['address', 'i128']);
        checkNonNegative(env, amount);
        checkNotIssuer(env, to);
        env.requireAuth(adminOf(env));
        extendInstance(env);
        receiveBalance(env, to, amount);
        env.emit([sym('mint'), addr(to), metadata(env, 'name')], i128(amount));
        return xdr.ScVal.scvVoid();
      }
      case 'set_authorized': {
        const [id, authorize] = decodeArgs(env, args, ['address', 'bool']);
        env.requireAuth(adminOf(env));
        extendInstance(env);
        writeAuthorization(env, id, authorize);
        env.emit([sym('set_authorized'), addr(id), metadata(env, 'name')], bool(authorize));
        return xdr.ScVal.scvVoid();
      }
      case 'trust': {
        // CAP-73 (rs-soroban-env v26+): creates the caller's unlimited trustline if it has none.
        const [id] = decodeArgs(env, args, ['address']);
        extendInstance(env);
        createTrustlineIfNeeded(env, id);
        return xdr.ScVal.scvVoid();
      }
      default:
        return unknownFunction();
    }
  },
};

function metadata(env: Env, name: 'name' | 'symbol'): xdr.ScVal {
  return field(env.instanceValue(sym('METADATA'))!, name)!;
}

const adminOf = (env: Env): string => readAddress(env.instanceValue(vec([sym('Admin')]))!);

const assets = new WeakMap<xdr.ScVal, CreditAsset>();

/** asset_info.rs `read_asset`: the instance's AssetInfo as code and issuer G…. */
function assetOf(env: Env): CreditAsset {
  const info = env.instanceValue(vec([sym('AssetInfo')]))!;
  let asset = assets.get(info);
  if (!asset) {
    const arm = xdr.expectUnionVariant(info, 'scvVec').vec![1];
    const code = xdr.expectUnionVariant(field(arm, 'asset_code')!, 'scvString').str.toString();
    const issuer = xdr.expectUnionVariant(field(arm, 'issuer')!, 'scvBytes').bytes.value;
    asset = { code: code.replace(/\0+$/, ''), issuer: StrKey.encodeEd25519PublicKey(Buffer.from(issuer)) };
    assets.set(info, asset);
  }
  return asset;
}

const isAccount = (id: string) => id.startsWith('G');

/** contract.rs: every state-changing or balance-reading entry point extends the instance first. */
function extendInstance(env: Env): void {
  env.extendInstanceTtl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}

/** contract.rs `check_nonnegative_amount`. */
function checkNonNegative(env: Env, amount: bigint): void {
  if (amount < 0n) env.fail(NEGATIVE_AMOUNT, 'negative amount is not allowed', [i128(amount)]);
}

/** contract.rs `check_not_issuer` (mint, burn). */
function checkNotIssuer(env: Env, id: string): void {
  if (id === assetOf(env).issuer) env.fail(OPERATION_NOT_SUPPORTED, 'operation invalid on issuer', []);
}

/** balance.rs `is_issuer_flag_set`: the issuer account's AUTH_* flag. */
function issuerFlag(env: Env, flag: number): boolean {
  const data = env.getLedgerEntry(accountKey(assetOf(env).issuer));
  return data ? (xdr.expectUnionVariant(data, 'account').account.flags & flag) !== 0 : false;
}

/** balance.rs `read_trustline_entry`: #13 with the account when the holder has no trustline. */
function trustlineOf(env: Env, id: string) {
  const key = trustlineKey(id, assetOf(env));
  const data = env.getLedgerEntry(key);
  if (!data) return env.fail(TRUSTLINE_MISSING, 'trustline entry is missing for account', [addr(id)]);
  return { key, data, t: readTrustline(data) };
}

/** balance.rs `read_balance`: trustline balance (i64::MAX for the issuer), or contract data. */
function readBalance(env: Env, id: string): bigint {
  if (isAccount(id)) {
    if (id === assetOf(env).issuer) return I64_MAX;
    return trustlineOf(env, id).t.balance;
  }
  const raw = env.getData(balanceKey(id), 'persistent');
  if (!raw) return 0n;
  env.extendTtl(balanceKey(id), 'persistent', BALANCE_TTL_THRESHOLD, BALANCE_EXTEND_AMOUNT);
  return readI128(field(raw, 'amount')!);
}

/** balance.rs `is_authorized`: the trustline's AUTHORIZED_FLAG (the issuer always), or the balance's flag. */
function isAuthorized(env: Env, id: string): boolean {
  if (isAccount(id)) {
    if (id === assetOf(env).issuer) return true;
    return (trustlineOf(env, id).t.flags & AUTHORIZED_FLAG) !== 0;
  }
  const raw = env.getData(balanceKey(id), 'persistent');
  if (raw) return readBool(field(raw, 'authorized')!);
  return !issuerFlag(env, AUTH_REQUIRED_FLAG);
}

const readBool = (v: xdr.ScVal): boolean => xdr.expectUnionVariant(v, 'scvBool').b;

/** balance.rs `write_contract_balance`: put, then extend its TTL to 30 days when under 29. */
function writeContractBalance(env: Env, id: string, amount: bigint, authorized: boolean, clawback: boolean): void {
  env.setData(
    balanceKey(id),
    struct({ amount: i128(amount), authorized: bool(authorized), clawback: bool(clawback) }),
    'persistent',
  );
  env.extendTtl(balanceKey(id), 'persistent', BALANCE_TTL_THRESHOLD, BALANCE_EXTEND_AMOUNT);
}

/** balance.rs `spend_balance`: the authorization check (#13 / #11) comes first. */
function spendBalance(env: Env, id: string, amount: bigint): void {
  if (!isAuthorized(env, id)) env.fail(BALANCE_DEAUTHORIZED, 'balance is deauthorized', []);
  if (isAccount(id)) {
    if (amount > I64_MAX) env.fail(OVERFLOW_ERROR, 'spent amount is too large for an i64', []);
    transferClassicBalance(env, id, -amount);
    return;
  }
  const raw = env.getData(balanceKey(id), 'persistent');
  if (raw) {
    const balance = readI128(field(raw, 'amount')!);
    if (balance < amount) env.fail(BALANCE_ERROR, 'balance is not sufficient to spend', [raw, i128(amount)]);
    writeContractBalance(
      env,
      id,
      balance - amount,
      readBool(field(raw, 'authorized')!),
      readBool(field(raw, 'clawback')!),
    );
  } else if (amount > 0n) {
    env.fail(BALANCE_ERROR, 'zero balance is not sufficient to spend', [i128(amount)]);
  }
}

/** balance.rs `receive_balance`: #11 (after #13 for a G… without trustline) before anything moves. */
function receiveBalance(env: Env, id: string, amount: bigint): void {
  if (!isAuthorized(env, id)) env.fail(BALANCE_DEAUTHORIZED, 'balance is deauthorized', []);
  if (isAccount(id)) {
    if (amount > I64_MAX) env.fail(OVERFLOW_ERROR, 'received amount is too large for an i64', []);
    transferClassicBalance(env, id, amount);
    return;
  }
  const raw = env.getData(balanceKey(id), 'persistent');
  const balance = raw ? readI128(field(raw, 'amount')!) : 0n;
  const authorized = raw ? readBool(field(raw, 'authorized')!) : true;
  const clawback = raw ? readBool(field(raw, 'clawback')!) : issuerFlag(env, AUTH_CLAWBACK_ENABLED_FLAG);
  if (balance + amount > I128_MAX) env.fail(OVERFLOW_ERROR, 'balance overflow in receive_balance', []);
  writeContractBalance(env, id, balance + amount, authorized, clawback);
}

/**
 * balance.rs `transfer_classic_balance` → `transfer_trustline_balance`: nothing for the issuer;
 * otherwise the trustline's new balance must stay within [min, max] of
 * `get_min_max_trustline_balance`, else #10 with [min, new, max] as i64 — below the minimum on
 * the sending side, above the limit on the receiving side.
 */
function transferClassicBalance(env: Env, id: string, delta: bigint): void {
  if (id === assetOf(env).issuer) return;
  const { key, data, t } = trustlineOf(env, id);
  const [min, max] = trustlineRange(t);
  const next = t.balance + delta;
  if (next > I64_MAX || next < I64_MIN) env.fail(BALANCE_ERROR, 'resulting balance overflow', []);
  if (next < min || next > max) {
    env.fail(BALANCE_ERROR, 'resulting balance is not within the allowed range', [i64(min), i64(next), i64(max)]);
  }
  env.putLedgerEntry(key, withTrustline(data, { balance: next }));
}

/** balance.rs `write_authorization` / `set_trustline_authorization`. */
function writeAuthorization(env: Env, id: string, authorize: boolean): void {
  if (!authorize && !issuerFlag(env, AUTH_REVOCABLE_FLAG)) {
    env.fail(OPERATION_NOT_SUPPORTED, 'issuer does not have AUTH_REVOCABLE set', []);
  }
  if (isAccount(id)) {
    if (id === assetOf(env).issuer) env.fail(OPERATION_NOT_SUPPORTED, "issuer doesn't have a trustline", []);
    const { key, data, t } = trustlineOf(env, id);
    if (((t.flags & AUTHORIZED_FLAG) !== 0) === authorize) return;
    // Deauthorizing keeps AUTHORIZED_TO_MAINTAIN_LIABILITIES so offers and pool shares stay.
    const flags = authorize
      ? (t.flags & ~AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG) | AUTHORIZED_FLAG
      : (t.flags & ~AUTHORIZED_FLAG) | AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG;
    env.putLedgerEntry(key, withTrustline(data, { flags }));
    return;
  }
  const raw = env.getData(balanceKey(id), 'persistent');
  if (raw) writeContractBalance(env, id, readI128(field(raw, 'amount')!), authorize, readBool(field(raw, 'clawback')!));
  else writeContractBalance(env, id, 0n, authorize, issuerFlag(env, AUTH_CLAWBACK_ENABLED_FLAG));
}

/**
 * balance.rs `create_trustline_if_needed` (CAP-73 `trust`): a no-op for C… and for an existing
 * trustline; otherwise the account's auth, then an unlimited trustline (authorized unless the
 * issuer has AUTH_REQUIRED) and one more sub-entry, if the account exists, has fewer than 1000
 * sub-entries and can cover one more base reserve.
 */
function createTrustlineIfNeeded(env: Env, id: string): void {
  if (!isAccount(id)) return;
  const asset = assetOf(env);
  if (id === asset.issuer) env.fail(OPERATION_NOT_SUPPORTED, 'cannot create trustline for issuer', []);
  const key = trustlineKey(id, asset);
  if (env.getLedgerEntry(key)) return;
  env.requireAuth(id);
  let flags = issuerFlag(env, AUTH_REQUIRED_FLAG) ? 0 : AUTHORIZED_FLAG;
  if (issuerFlag(env, AUTH_CLAWBACK_ENABLED_FLAG)) flags |= TRUSTLINE_CLAWBACK_ENABLED_FLAG;
  const account = env.getLedgerEntry(accountKey(id));
  if (!account) return env.fail(ACCOUNT_MISSING, 'account entry is missing', [addr(id)]);
  const a = xdr.expectUnionVariant(account, 'account').account;
  if (a.numSubEntries >= MAX_ACCOUNT_SUBENTRIES) {
    env.fail(TOO_MANY_ACCOUNT_SUBENTRIES, 'account has reached maximum number of sub-entries', []);
  }
  const reserve = BigInt(BASE_RESERVE_STROOPS);
  if (a.balance < accountMinBalance(account, reserve) + reserve) {
    env.fail(INSUFFICIENT_ACCOUNT_RESERVE, 'account has insufficient reserve for new trustline', []);
  }
  env.putLedgerEntry(key, trustlineEntry(id, asset, { balance: 0n, limit: I64_MAX, flags }));
  env.putLedgerEntry(accountKey(id), withSubEntries(account, 1));
}

/**
 * event.rs `transfer_maybe_with_issuer`: a transfer from the issuer is reported as `mint`
 * [mint, to, name], one to the issuer as `burn` [burn, from, name], others as `transfer`.
 */
function transferEvent(env: Env, from: string, to: string, amount: bigint): void {
  const name = metadata(env, 'name');
  const issuer = assetOf(env).issuer;
  if (from !== to && from === issuer) env.emit([sym('mint'), addr(to), name], i128(amount));
  else if (from !== to && to === issuer) env.emit([sym('burn'), addr(from), name], i128(amount));
  else env.emit([sym('transfer'), addr(from), addr(to), name], i128(amount));
}

function readAllowance(env: Env, from: string, spender: string): bigint {
  const v = env.getData(allowanceKey(from, spender), 'temporary');
  if (!v) return 0n;
  // An allowance past its live_until_ledger reads as zero, even while the entry still exists.
  return readU32(field(v, 'live_until_ledger')!) < env.ledgerSequence() ? 0n : readI128(field(v, 'amount')!);
}

/**
 * allowance.rs `write_allowance`: live_until checked against the max ([live_until, max_entry_ttl])
 * and, for a positive amount, the current ledger; an existing entry gets the new amount and
 * live_until, a new one is written only for a positive amount; a positive allowance whose
 * live_until grew is extended to live exactly until it.
 */
function writeAllowance(env: Env, from: string, spender: string, amount: bigint, liveUntil: number): void {
  const seq = env.ledgerSequence();
  const maxEntryTtl = env.maxLiveUntil() - seq + 1;
  if (liveUntil > env.maxLiveUntil())
    env.fail(ALLOWANCE_ERROR, 'live_until is greater than max', [u32(liveUntil), u32(maxEntryTtl)]);
  if (amount > 0n && liveUntil < seq) {
    env.fail(ALLOWANCE_ERROR, 'live_until must be >= ledger sequence', [u32(liveUntil), u32(seq)]);
  }
  const key = allowanceKey(from, spender);
  const existing = env.getData(key, 'temporary');
  if (!existing && amount <= 0n) return;
  const oldLiveUntil = existing ? readU32(field(existing, 'live_until_ledger')!) : 0;
  env.setData(key, struct({ amount: i128(amount), live_until_ledger: u32(liveUntil) }), 'temporary');
  if (amount > 0n && oldLiveUntil < liveUntil) {
    const liveFor = Math.max(0, liveUntil - seq);
    env.extendTtl(key, 'temporary', liveFor, liveFor);
  }
}

function approve(env: Env, from: string, spender: string, amount: bigint, liveUntil: number): void {
  writeAllowance(env, from, spender, amount, liveUntil);
  env.emit([sym('approve'), addr(from), addr(spender), metadata(env, 'name')], vec([i128(amount), u32(liveUntil)]));
}

/** allowance.rs `spend_allowance`: #9 [allowance, amount]; a positive spend rewrites the amount. */
function spendAllowance(env: Env, from: string, spender: string, amount: bigint): void {
  const allowance = readAllowance(env, from, spender);
  if (allowance < amount) {
    env.fail(ALLOWANCE_ERROR, 'not enough allowance to spend', [i128(allowance), i128(amount)]);
  }
  if (amount <= 0n) return;
  const v = env.getData(allowanceKey(from, spender), 'temporary')!;
  writeAllowance(env, from, spender, allowance - amount, readU32(field(v, 'live_until_ledger')!));
}
