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
  /**
   * soroban-sdk `storage().persistent()/temporary().extend_ttl(key, threshold, extend_to)`, i.e. the
   * host's `extend_contract_data_ttl` (rs-soroban-env storage.rs `Storage::extend_ttl`): when the
   * entry has `threshold` ledgers or fewer left, its live_until becomes current + `extend_to`
   * (clamped to the network's max TTL). A read access: a read-only footprint entry may be extended.
   */
  extendTtl(key: xdr.ScVal, durability: Durability, threshold: number, extendTo: number): void;
  /** `storage().instance().extend_ttl(threshold, extend_to)`: the running contract's instance and its code. */
  extendInstanceTtl(threshold: number, extendTo: number): void;
  /**
   * Built-in contracts only (the Stellar Asset Contract): a classic ledger entry (account,
   * trustline) read or written through the host's storage, inside the footprint like any entry.
   */
  getLedgerEntry(key: xdr.LedgerKey): xdr.LedgerEntryData | undefined;
  putLedgerEntry(key: xdr.LedgerKey, data: xdr.LedgerEntryData): void;
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
