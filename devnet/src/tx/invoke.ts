// Runs one InvokeHostFunction against a ledger state, for simulation (recording)
// or for apply (enforcing the declared footprint and the signed auth entries).
import type { xdr } from '@stellar/stellar-sdk';
import { strkeyOf } from '../ledger/addresses.ts';
import { AuthManager, type AuthMode } from '../host/auth.ts';
import type { DeployedContract } from '../host/contract.ts';
import { Host } from '../host/host.ts';
import { HostError } from '../host/host-error.ts';
import { StorageView, type AccessMode } from '../host/storage-view.ts';
import type { LedgerState } from '../ledger/ledger-state.ts';
import { NETWORK_CONFIG, type SorobanNetworkConfig } from '../ledger/network-config.ts';

export type InvokeRequest = {
  state: LedgerState;
  contracts: Map<string, DeployedContract>;
  ledgerSeq: number;
  timestamp: bigint;
  networkId: Uint8Array;
  /** Operation source, else transaction source: whose SOURCE_ACCOUNT credentials apply. */
  source: string;
  hostFunction: xdr.HostFunction;
  authEntries: xdr.SorobanAuthorizationEntry[];
  authMode: AuthMode;
  access: AccessMode;
  /** Record SOROBAN_CREDENTIALS_ADDRESS_V2 rather than legacy ADDRESS (simulation's useUpgradedAuth). */
  useAddressV2?: boolean;
  /** The network's TTL settings (default: the real network's). */
  config?: SorobanNetworkConfig;
  /** A storage view prepared by the caller (apply restores archived entries into it first). */
  storage?: StorageView;
};

export type InvokeOutcome = {
  host: Host;
  storage: StorageView;
  auth: AuthManager;
  value?: xdr.ScVal;
  error?: HostError;
};

export const MAX_ENTRY_TTL = NETWORK_CONFIG.maxEntryTtl;

export type Call = { contract: string; fn: string; args: xdr.ScVal[] };

/** The contract call of an InvokeHostFunction op, or undefined for other host functions. */
export function contractCall(fn: xdr.HostFunction): Call | undefined {
  if (fn.type !== 'hostFunctionTypeInvokeContract') return undefined;
  const c = fn.invokeContract;
  return {
    contract: strkeyOf(c.contractAddress),
    fn: c.functionName.toString(),
    args: c.args,
  };
}

export function invoke(req: InvokeRequest): InvokeOutcome {
  const cfg = req.config ?? NETWORK_CONFIG;
  const storage =
    req.storage ?? new StorageView(req.state, req.ledgerSeq, req.access, req.ledgerSeq + cfg.minPersistentTtl - 1);
  const auth = new AuthManager(req.authMode, req.source, req.authEntries, req.networkId, req.useAddressV2);
  const host = new Host({
    storage,
    auth,
    contracts: req.contracts,
    ledgerSeq: req.ledgerSeq,
    timestamp: req.timestamp,
    maxEntryTtl: cfg.maxEntryTtl,
    minPersistentTtl: cfg.minPersistentTtl,
    minTemporaryTtl: cfg.minTemporaryTtl,
  });
  const call = contractCall(req.hostFunction);
  if (!call) {
    return { host, storage, auth, error: new HostError('Context', 'InvalidAction') };
  }
  try {
    const value = host.invoke(call.contract, call.fn, call.args);
    return { host, storage, auth, value };
  } catch (e) {
    if (e instanceof HostError) return { host, storage, auth, error: e };
    throw e;
  }
}
