// Argument decoding for contract entry points. A mistyped argument is a host
// conversion error, as when a Wasm contract receives a value of the wrong type.
import { xdr } from '@stellar/stellar-sdk';
import type { Env } from '../host/contract.ts';
import { HostError } from '../host/host-error.ts';
import { readAddress, readI128, readU32, readU64 } from '../host/scval.ts';

export type ArgKind = 'address' | 'i128' | 'u32' | 'u64' | 'bool';
type Decoded = { address: string; i128: bigint; u32: number; u64: bigint; bool: boolean };

const TYPE_OF: Record<ArgKind, string> = {
  address: 'scvAddress',
  i128: 'scvI128',
  u32: 'scvU32',
  u64: 'scvU64',
  bool: 'scvBool',
};

export function decodeArgs<K extends ArgKind[]>(
  _env: Env,
  args: xdr.ScVal[],
  kinds: [...K],
): { [I in keyof K]: K[I] extends ArgKind ? Decoded[K[I]] : never } {
  if (args.length !== kinds.length) throw new HostError('WasmVm', 'UnexpectedSize');
  return kinds.map((k, i) => {
    const v = args[i];
    if (v.type !== TYPE_OF[k]) throw new HostError('Value', 'UnexpectedType');
    if (k === 'address') return readAddress(v);
    if (k === 'i128') return readI128(v);
    if (k === 'u32') return readU32(v);
    if (k === 'bool') return xdr.expectUnionVariant(v, 'scvBool').b;
    return readU64(v);
  }) as never;
}

export function unknownFunction(): never {
  throw new HostError('WasmVm', 'MissingValue');
}
