// What a confirmed pull moved, read from the token's own `transfer` event rather than assumed
// from the plan. Since protocol 23 (CAP-67) a SAC transfer event has topics
// ["transfer", from, to, asset] and data that is either the i128 amount or, when the receiver is
// muxed, a map { amount, to_muxed_id }; custom SEP-41 tokens emit ["transfer", from, to] with the
// i128 amount. Both are read here.
import { Address, scValToNative, type xdr } from '@stellar/stellar-sdk';
import type { Transfer } from '../billing/pulls/vault-gateway.ts';

function addressOf(val: xdr.ScVal | undefined): string | undefined {
  return val?.type === 'scvAddress' ? Address.fromScAddress(val.address).toString() : undefined;
}

function amountOf(data: xdr.ScVal): bigint | undefined {
  if (data.type === 'scvI128') return BigInt(scValToNative(data) as bigint);
  if (data.type === 'scvMap') {
    const entry = data.map?.find((e) => e.key.type === 'scvSymbol' && e.key.sym.toString() === 'amount');
    return entry ? amountOf(entry.val) : undefined;
  }
  return undefined;
}

/** The first transfer from `from` to `to` among the transaction's contract events. */
export function findTransfer(events: xdr.ContractEvent[], from: string, to: string): Transfer | undefined {
  for (const event of events) {
    if (event.type.name !== 'contract' || !event.contractId) continue;
    const { topics, data } = event.body.v0;
    if (topics[0]?.type !== 'scvSymbol' || topics[0].sym.toString() !== 'transfer') continue;
    if (addressOf(topics[1]) !== from || addressOf(topics[2]) !== to) continue;
    const amount = amountOf(data);
    if (amount === undefined) continue;
    return { amount: amount.toString(), token: Address.contract(event.contractId.value).toString() };
  }
  return undefined;
}
