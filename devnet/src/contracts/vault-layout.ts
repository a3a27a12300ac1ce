// The subscription vault's storage, encoded as soroban-sdk encodes #[contracttype]
// structs: an ScMap with Symbol keys in sorted order. The key is VaultKey { user,
// merchant } itself (persistent storage), the value VaultData.
import type { xdr } from '@stellar/stellar-sdk';
import { addr, field, i128, readAddress, readI128, readU64, struct, u64 } from '../host/scval.ts';

export type VaultData = {
  token: string;
  amountPerInterval: bigint;
  intervalSeconds: bigint;
  lastPullTimestamp: bigint;
};

export const vaultKey = (user: string, merchant: string): xdr.ScVal =>
  struct({ user: addr(user), merchant: addr(merchant) });

export function encodeVaultData(v: VaultData): xdr.ScVal {
  return struct({
    token: addr(v.token),
    amount_per_interval: i128(v.amountPerInterval),
    interval_seconds: u64(v.intervalSeconds),
    last_pull_timestamp: u64(v.lastPullTimestamp),
  });
}

export function decodeVaultData(v: xdr.ScVal): VaultData {
  return {
    token: readAddress(field(v, 'token')!),
    amountPerInterval: readI128(field(v, 'amount_per_interval')!),
    intervalSeconds: readU64(field(v, 'interval_seconds')!),
    lastPullTimestamp: readU64(field(v, 'last_pull_timestamp')!),
  };
}
