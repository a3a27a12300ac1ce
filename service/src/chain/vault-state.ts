// Reads the vault contract's own storage, laid out as the deployed contract lays it out:
// a persistent entry keyed `VaultKey { user, merchant }` holding `VaultData { token,
// amount_per_interval, interval_seconds, last_pull_timestamp }`. soroban-sdk encodes a
// #[contracttype] struct as an ScMap with Symbol keys in sorted order, so that is the key we build.
import { Address, scValToNative, xdr, type rpc } from '@stellar/stellar-sdk';
import type { VaultTerms } from '../billing/pulls/vault-gateway.ts';

export function vaultLedgerKey(contractId: string, user: string, merchant: string): xdr.LedgerKey {
  const key = xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('merchant'), val: new Address(merchant).toScVal() }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('user'), val: new Address(user).toScVal() }),
  ]);
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contractId).toScAddress(),
      key,
      durability: xdr.ContractDataDurability.persistent,
    }),
  );
}

export function decodeVault(val: xdr.ScVal): VaultTerms {
  const data = scValToNative(val) as Record<string, unknown>;
  return {
    token: String(data.token),
    amountPerInterval: BigInt(data.amount_per_interval as bigint),
    intervalSeconds: BigInt(data.interval_seconds as bigint),
    lastPullTimestamp: BigInt(data.last_pull_timestamp as bigint),
  };
}

function contractDataValue(entry: xdr.LedgerEntryData): xdr.ScVal | undefined {
  return entry.type === 'contractData' ? entry.contractData.val : undefined;
}

/**
 * The vault as it was before a simulated pull: a successful simulation lists every entry it
 * would change in `stateChanges` (before and after), so no extra round trip is needed.
 * undefined when the simulation does not show the vault entry.
 */
export function vaultFromStateChanges(
  changes: rpc.Api.LedgerEntryChange[] | undefined,
  key: xdr.LedgerKey,
): VaultTerms | undefined {
  const change = changes?.find((c) => c.key.equals(key));
  const val = change?.before ? contractDataValue(change.before.data) : undefined;
  return val ? decodeVault(val) : undefined;
}

/**
 * undefined when the vault entry does not exist. An archived vault (its TTL passed) is returned:
 * since protocol 23 the pull restores it itself, so it is not missing.
 */
export async function readVault(
  server: rpc.Server,
  contractId: string,
  user: string,
  merchant: string,
): Promise<VaultTerms | undefined> {
  const res = await server.getLedgerEntries(vaultLedgerKey(contractId, user, merchant));
  const entry = res.entries[0];
  if (!entry) return undefined;
  const val = contractDataValue(entry.val);
  return val ? decodeVault(val) : undefined;
}
