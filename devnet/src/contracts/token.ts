// A token with the Stellar Asset Contract interface, storage layout, error codes and
// diagnostic texts (rs-soroban-env builtin_contracts/stellar_asset_contract). One
// simplification: balances of G… holders live in contract data like C… holders,
// where a real credit-asset SAC would use trustlines.
import { xdr } from '@stellar/stellar-sdk';
import type { Contract, Env } from '../host/contract.ts';
import { addr, bool, field, i128, i64, readAddress, readI128, readU32, str, struct, sym, u32, vec } from '../host/scval.ts';
import { decodeArgs, unknownFunction } from './args.ts';

const NEGATIVE_AMOUNT = 8;
const ALLOWANCE_ERROR = 9;
const BALANCE_ERROR = 10;
const I64_MAX = 9223372036854775807n;

export const tokenInstanceStorage = (admin: string, name: string, symbol: string): xdr.ScMapEntry[] => [
  new xdr.ScMapEntry({ key: sym('METADATA'), val: struct({ decimal: u32(7), name: str(name), symbol: str(symbol) }) }),
  new xdr.ScMapEntry({ key: vec([sym('Admin')]), val: addr(admin) }),
];

export const balanceKey = (id: string) => vec([sym('Balance'), addr(id)]);
export const allowanceKey = (from: string, spender: string) =>
  vec([sym('Allowance'), struct({ from: addr(from), spender: addr(spender) })]);

export const stellarAssetContract: Contract = {
  call(env, fn, args) {
    switch (fn) {
      case 'decimals': return u32(7);
      case 'name': return metadata(env, 'name');
      case 'symbol': return metadata(env, 'symbol');
      case 'balance': {
        const [id] = decodeArgs(env, args, ['address']);
        return i128(readBalance(env, id));
      }
      case 'allowance': {
        const [from, spender] = decodeArgs(env, args, ['address', 'address']);
        return i128(readAllowance(env, from, spender));
      }
      case 'approve': {
        const [from, spender, amount, liveUntil] = decodeArgs(env, args, ['address', 'address', 'i128', 'u32']);
        checkNonNegative(env, amount);
        env.requireAuth(from);
        approve(env, from, spender, amount, liveUntil);
        return xdr.ScVal.scvVoid();
      }
      case 'transfer': {
        const [from, to, amount] = decodeArgs(env, args, ['address', 'address', 'i128']);
        checkNonNegative(env, amount);
        env.requireAuth(from);
        move(env, from, to, amount);
        return xdr.ScVal.scvVoid();
      }
      case 'transfer_from': {
        const [spender, from, to, amount] = decodeArgs(env, args, ['address', 'address', 'address', 'i128']);
        checkNonNegative(env, amount);
        env.requireAuth(spender);
        spendAllowance(env, from, spender, amount);
        move(env, from, to, amount);
        return xdr.ScVal.scvVoid();
      }
      case 'mint': {
        const [to, amount] = decodeArgs(env, args, ['address', 'i128']);
        checkNonNegative(env, amount);
        env.requireAuth(adminOf(env));
        writeBalance(env, to, readBalance(env, to) + amount);
        env.emit([sym('mint'), addr(to), metadata(env, 'name')], i128(amount));
        return xdr.ScVal.scvVoid();
      }
      case 'admin': return addr(adminOf(env));
      default: return unknownFunction();
    }
  },
};

function metadata(env: Env, name: 'name' | 'symbol'): xdr.ScVal {
  return field(env.instanceValue(sym('METADATA'))!, name)!;
}

const adminOf = (env: Env): string => readAddress(env.instanceValue(vec([sym('Admin')]))!);

function checkNonNegative(env: Env, amount: bigint): void {
  if (amount < 0n) env.fail(NEGATIVE_AMOUNT, 'negative amount is not allowed', [i128(amount)]);
}

function readBalance(env: Env, id: string): bigint {
  const v = env.getData(balanceKey(id), 'persistent');
  return v ? readI128(field(v, 'amount')!) : 0n;
}

function writeBalance(env: Env, id: string, amount: bigint): void {
  env.setData(balanceKey(id), struct({ amount: i128(amount), authorized: bool(true), clawback: bool(false) }), 'persistent');
}

/**
 * transfer / transfer_from: the issuer has no balance to spend or fill (the SAC's trustline
 * rules), and the event follows event.rs transfer_maybe_with_issuer: a transfer from the issuer
 * is reported as `mint` [mint, to, name], one to the issuer as `burn` [burn, from, name].
 */
function move(env: Env, from: string, to: string, amount: bigint): void {
  const issuer = issuerOf(env);
  if (from !== issuer) spendBalance(env, from, amount);
  if (to !== issuer) writeBalance(env, to, readBalance(env, to) + amount);
  const name = metadata(env, 'name');
  if (from !== to && from === issuer) env.emit([sym('mint'), addr(to), name], i128(amount));
  else if (from !== to && to === issuer) env.emit([sym('burn'), addr(from), name], i128(amount));
  else env.emit([sym('transfer'), addr(from), addr(to), name], i128(amount));
}

/** The issuer of a credit asset's SAC: the G… after the colon of its name "CODE:ISSUER". */
function issuerOf(env: Env): string | undefined {
  const name = metadata(env, 'name');
  return name.type === 'scvString' ? name.str.toString().split(':')[1] : undefined;
}

function spendBalance(env: Env, id: string, amount: bigint): void {
  const raw = env.getData(balanceKey(id), 'persistent');
  const balance = raw ? readI128(field(raw, 'amount')!) : 0n;
  if (balance >= amount) {
    writeBalance(env, id, balance - amount);
    return;
  }
  if (id.startsWith('G')) {
    // How a classic holder's shortfall reads: min balance, resulting balance, max (i64).
    env.fail(BALANCE_ERROR, 'resulting balance is not within the allowed range', [i64(0n), i64(balance - amount), i64(I64_MAX)]);
  }
  if (!raw) env.fail(BALANCE_ERROR, 'zero balance is not sufficient to spend', [i128(amount)]);
  env.fail(BALANCE_ERROR, 'balance is not sufficient to spend', [raw, i128(amount)]);
}

function readAllowance(env: Env, from: string, spender: string): bigint {
  const v = env.getData(allowanceKey(from, spender), 'temporary');
  if (!v) return 0n;
  // An allowance past its live_until_ledger reads as zero, even while the entry still exists.
  return readU32(field(v, 'live_until_ledger')!) < env.ledgerSequence() ? 0n : readI128(field(v, 'amount')!);
}

function approve(env: Env, from: string, spender: string, amount: bigint, liveUntil: number): void {
  const max = env.maxLiveUntil();
  if (liveUntil > max) env.fail(ALLOWANCE_ERROR, 'live_until is greater than max', [u32(liveUntil), u32(max)]);
  if (amount > 0n && liveUntil < env.ledgerSequence()) {
    env.fail(ALLOWANCE_ERROR, 'live_until must be >= ledger sequence', [u32(liveUntil), u32(env.ledgerSequence())]);
  }
  const value = struct({ amount: i128(amount), live_until_ledger: u32(liveUntil) });
  env.setData(allowanceKey(from, spender), value, 'temporary', liveUntil);
  env.emit([sym('approve'), addr(from), addr(spender), metadata(env, 'name')], vec([i128(amount), u32(liveUntil)]));
}

function spendAllowance(env: Env, from: string, spender: string, amount: bigint): void {
  const allowance = readAllowance(env, from, spender);
  if (allowance < amount) {
    env.fail(ALLOWANCE_ERROR, 'not enough allowance to spend', [i128(allowance), i128(amount)]);
  }
  if (amount === 0n) return;
  const v = env.getData(allowanceKey(from, spender), 'temporary')!;
  const value = struct({ amount: i128(allowance - amount), live_until_ledger: field(v, 'live_until_ledger')! });
  env.setData(allowanceKey(from, spender), value, 'temporary');
}
