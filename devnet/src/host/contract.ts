// The interface a devnet contract is written against: a small slice of the
// Soroban host (storage, auth, ledger info, events, cross-contract calls).
import type { xdr } from '@stellar/stellar-sdk';

export type Durability = 'persistent' | 'temporary';

export interface Env {
  /** C… id of the running contract. */
  readonly contract: string;
  ledgerSequence(): number;
  ledgerTimestamp(): bigint;
  /** Highest live_until a new entry may get (current + max TTL − 1). */
  maxLiveUntil(): number;
  requireAuth(address: string): void;
  getData(key: xdr.ScVal, durability: Durability): xdr.ScVal | undefined;
  setData(key: xdr.ScVal, val: xdr.ScVal, durability: Durability, liveUntil?: number): void;
  removeData(key: xdr.ScVal, durability: Durability): void;
  /** The contract instance's own storage map (read only here: our contracts set it at genesis). */
  instanceValue(key: xdr.ScVal): xdr.ScVal | undefined;
  emit(topics: xdr.ScVal[], data: xdr.ScVal): void;
  call(contract: string, fn: string, args: xdr.ScVal[]): xdr.ScVal;
  /** A Rust panic in a release build: the message is dropped, the VM traps. */
  panic(message: string): never;
  /** A contract error with the host's diagnostic (how built-in contracts fail). */
  fail(code: number, message: string, args: xdr.ScVal[]): never;
}

export interface Contract {
  call(env: Env, fn: string, args: xdr.ScVal[]): xdr.ScVal;
}

export type DeployedContract = {
  id: string;
  impl: Contract;
  /** Wasm contracts also read their code entry; a Stellar Asset Contract does not. */
  wasmHash?: Uint8Array;
};
