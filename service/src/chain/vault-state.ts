// Reads the vault contract's own storage, laid out as the deployed contract lays it out:
// a persistent entry keyed `VaultKey { user, merchant }` holding `VaultData { token,
// amount_per_interval, interval_seconds, last_pull_timestamp }`. soroban-sdk encodes a
// #[contracttype] struct as an ScMap with Symbol keys in sorted order, so that is the key we build.
import { Address, scValToNative, xdr, type rpc } from '@stellar/stellar-sdk';

export interface VaultData {
  token: string;
  amountPerInterval: bigint;
  intervalSeconds: bigint;
  lastPullTimestamp: bigint;
}

export function vaultLedgerKey(contractId: string, user: string, merchant: string): xdr.LedgerKey {
  const key = xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('merchant'), val: new Address(merchant).toScVal() }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('user'), val: new Address(user).toScVal() }),
  ]);
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contractId).toScAddress(),
      key,
      durability: xdr.ContractDataDurability.persistent(),
    }),
  );
}

/** undefined when the vault entry does not exist (or is archived: it cannot be used either way). */
export async function readVault(
  server: rpc.Server,
  contractId: string,
  user: string,
  merchant: string,
): Promise<VaultData | undefined> {
  const res = await server.getLedgerEntries(vaultLedgerKey(contractId, user, merchant));
  const entry = res.entries[0];
  if (!entry || (entry.liveUntilLedgerSeq !== undefined && entry.liveUntilLedgerSeq < res.latestLedger)) {
    return undefined;
  }
  const data = scValToNative(entry.val.contractData().val()) as Record<string, unknown>;
  return {
    token: String(data.token),
    amountPerInterval: BigInt(data.amount_per_interval as bigint),
    intervalSeconds: BigInt(data.interval_seconds as bigint),
    lastPullTimestamp: BigInt(data.last_pull_timestamp as bigint),
  };
}
