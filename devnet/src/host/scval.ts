// Small ScVal builders and readers shared by the host and the contracts.
// Contracts take and return ScVals, exactly as a Wasm contract sees them.
import { xdr } from '@stellar/stellar-sdk';
import { scAddress, strkeyOf } from '../ledger/addresses.ts';

export const sym = (s: string): xdr.ScVal => xdr.ScVal.scvSymbol(s);
export const str = (s: string): xdr.ScVal => xdr.ScVal.scvString(s);
export const u32 = (n: number): xdr.ScVal => xdr.ScVal.scvU32(n);
export const u64 = (n: bigint): xdr.ScVal => xdr.ScVal.scvU64(n);
export const i64 = (n: bigint): xdr.ScVal => xdr.ScVal.scvI64(n);
export const bool = (b: boolean): xdr.ScVal => xdr.ScVal.scvBool(b);
export const vec = (items: xdr.ScVal[]): xdr.ScVal => xdr.ScVal.scvVec(items);
export const voidVal = (): xdr.ScVal => xdr.ScVal.scvVoid();
export const addr = (strkey: string): xdr.ScVal => xdr.ScVal.scvAddress(scAddress(strkey));

const MASK64 = (1n << 64n) - 1n;

export function i128(n: bigint): xdr.ScVal {
  const lo = n & MASK64;
  const hi = BigInt.asIntN(64, n >> 64n);
  return xdr.ScVal.scvI128(new xdr.Int128Parts({ hi, lo }));
}

/** A `#[contracttype]` struct: an ScMap keyed by Symbols, sorted as the host requires. */
export function struct(fields: Record<string, xdr.ScVal>): xdr.ScVal {
  const names = Object.keys(fields).sort(compareSymbols);
  return xdr.ScVal.scvMap(names.map((k) => new xdr.ScMapEntry({ key: sym(k), val: fields[k] })));
}

// Symbols order by their bytes (ASCII), not by locale.
function compareSymbols(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Narrows an ScVal to one arm; a value of another type is a devnet bug, not a host error. */
function expect<K extends xdr.ScVal['type']>(v: xdr.ScVal, type: K): Extract<xdr.ScVal, { readonly type: K }> {
  return xdr.expectUnionVariant(v, type);
}

export function readI128(v: xdr.ScVal): bigint {
  const parts = expect(v, 'scvI128').i128;
  return (BigInt.asIntN(64, parts.hi) << 64n) | BigInt.asUintN(64, parts.lo);
}

export const readU64 = (v: xdr.ScVal): bigint => expect(v, 'scvU64').u64;
export const readU32 = (v: xdr.ScVal): number => expect(v, 'scvU32').u32;
export const readAddress = (v: xdr.ScVal): string => strkeyOf(expect(v, 'scvAddress').address);

/** Field of a struct-shaped ScMap, or undefined. */
export function field(map: xdr.ScVal, name: string): xdr.ScVal | undefined {
  if (map.type !== 'scvMap') return undefined;
  for (const e of map.map ?? []) {
    if (e.key.type === 'scvSymbol' && e.key.sym.toString() === name) return e.val;
  }
  return undefined;
}

export function scvEquals(a: xdr.ScVal, b: xdr.ScVal): boolean {
  return a.toXdr('base64') === b.toXdr('base64');
}
