// Whether a missing vault was cancelled by its subscriber. The public vault contract has no cancel
// entry point yet (a subscriber stops payments by approving 0); Orbit's README plans cancel_vault
// with events. A vault built with it emits ["vault_cancelled", user, merchant] when cancelled, and
// the RPC keeps events for its retention window, so a cancellation within that window is found.
import { Address, nativeToScVal, type rpc } from '@stellar/stellar-sdk';

const VAULT_CANCELLED = 'vault_cancelled';

export interface Cancellation {
  ledger: number;
  txHash: string;
}

/** The latest cancellation of the (user, merchant) vault the RPC still remembers, if any. */
export async function findCancellation(
  server: rpc.Server,
  contractId: string,
  user: string,
  merchant: string,
): Promise<Cancellation | undefined> {
  const health = (await server.getHealth()) as rpc.Api.GetHealthResponse;
  const topics = [
    nativeToScVal(VAULT_CANCELLED, { type: 'symbol' }),
    new Address(user).toScVal(),
    new Address(merchant).toScVal(),
  ].map((v) => v.toXdr('base64'));
  const res = await server.getEvents({
    startLedger: health.oldestLedger,
    filters: [{ type: 'contract', contractIds: [contractId], topics: [topics] }],
    limit: 100,
  });
  const last = res.events.at(-1);
  return last ? { ledger: last.ledger, txHash: last.txHash } : undefined;
}
