// Reads a Stellar Asset Contract allowance as the SAC stores it (rs-soroban-env,
// builtin_contracts/stellar_asset_contract/storage_types.rs and allowance.rs): a *temporary*
// entry keyed DataKey::Allowance(AllowanceDataKey { from, spender }) — encoded as
// Vec[Symbol("Allowance"), Map{from, spender}] — holding AllowanceValue { amount,
// live_until_ledger }. An allowance past live_until_ledger reads as 0 to the contract, and the
// temporary entry itself disappears once its TTL runs out: on chain an expired allowance then looks
// exactly like one never made (#9), so the service only calls it expired on evidence.
import { Address, scValToNative, xdr, type rpc } from '@stellar/stellar-sdk';

export interface AllowanceState {
  amount: bigint;
  liveUntilLedger: number;
  /** The latest ledger when it was read. */
  latestLedger: number;
}

export function allowanceLedgerKey(token: string, from: string, spender: string): xdr.LedgerKey {
  const key = xdr.ScVal.scvVec([
    xdr.ScVal.scvSymbol('Allowance'),
    xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('from'), val: new Address(from).toScVal() }),
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('spender'), val: new Address(spender).toScVal() }),
    ]),
  ]);
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(token).toScAddress(),
      key,
      durability: xdr.ContractDataDurability.temporary,
    }),
  );
}

/** undefined when no allowance entry exists (never made, or expired and gone). */
export async function readAllowance(
  server: rpc.Server,
  token: string,
  from: string,
  spender: string,
): Promise<AllowanceState | undefined> {
  const res = await server.getLedgerEntries(allowanceLedgerKey(token, from, spender));
  const entry = res.entries[0];
  if (entry?.val.type !== 'contractData') return undefined;
  const value = scValToNative(entry.val.contractData.val) as { amount?: bigint; live_until_ledger?: number };
  // The entry's own TTL ending first also ends the allowance.
  const ttl = entry.liveUntilLedgerSeq ?? Number.MAX_SAFE_INTEGER;
  return {
    amount: BigInt(value.amount ?? 0n),
    liveUntilLedger: Math.min(Number(value.live_until_ledger ?? 0), ttl),
    latestLedger: res.latestLedger,
  };
}

/**
 * The amount of the subscriber's latest `approve` to the spender that the RPC still remembers
 * (the SAC emits ["approve", from, spender, asset] with data [amount, live_until_ledger]), or
 * undefined when none is in its window. An allowance at 0 is *revoked* only when the subscriber
 * set it to 0: spending it down to 0 leaves the very same entry.
 */
export async function latestApprovalAmount(
  server: rpc.Server,
  token: string,
  from: string,
  spender: string,
): Promise<bigint | undefined> {
  const health = (await server.getHealth()) as rpc.Api.GetHealthResponse;
  const topics = [xdr.ScVal.scvSymbol('approve'), new Address(from).toScVal(), new Address(spender).toScVal()].map(
    (v) => v.toXdr('base64'),
  );
  const res = await server.getEvents({
    startLedger: health.oldestLedger,
    filters: [{ type: 'contract', contractIds: [token], topics: [[...topics, '**']] }],
    limit: 100,
  });
  const last = res.events.at(-1);
  if (!last) return undefined;
  const [amount] = scValToNative(last.value) as [bigint, number];
  return BigInt(amount);
}
