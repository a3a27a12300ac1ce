// What an observation of the network means for an attempt, applied exactly once. Shared by
// /trigger-pull (its own attempt, or one it found in flight) and the reconciler.
import type { Clock, UnitOfWork } from '../ports.ts';
import type { PullAttempt } from './pulls-port.ts';
import { nextBillingDate } from '../schedule.ts';
import type { TxObservation } from './vault-gateway.ts';

/**
 * A transaction still NOT_FOUND once the ledger's close time is this far past its time bound
 * will never be included: core drops a transaction at the first ledger after its maxTime. Two
 * ledgers of 5 s are the margin for an RPC that is a ledger or two behind the network.
 */
export const EXPIRY_MARGIN_SECONDS = 10;

export type AttemptOutcome =
  | { kind: 'confirmed'; txHash: string }
  | { kind: 'failed'; txHash: string }
  | { kind: 'pending'; txHash: string }
  | { kind: 'expired'; txHash: string };

export interface SettleDeps {
  uow: UnitOfWork;
  clock: Clock;
}

export function isExpired(attempt: Pick<PullAttempt, 'max_time'>, obs: TxObservation): boolean {
  return obs.status === 'NOT_FOUND' && obs.latestLedgerCloseTime > attempt.max_time.getTime() / 1000 + EXPIRY_MARGIN_SECONDS;
}

export async function settleAttempt(
  deps: SettleDeps,
  attempt: Pick<PullAttempt, 'id' | 'subscription_id' | 'tx_hash' | 'max_time'>,
  intervalSeconds: number,
  obs: TxObservation,
): Promise<AttemptOutcome> {
  const txHash = attempt.tx_hash;
  const at = deps.clock.now();
  if (obs.status === 'SUCCESS') {
    await deps.uow.run(async ({ pulls }) => {
      // Pull time is our clock when we see the confirmation (spec, next-billing-date rule 1).
      if (await pulls.resolve(attempt.id, { status: 'confirmed', ledger: obs.ledger, at })) {
        await pulls.scheduleNext(attempt.subscription_id, nextBillingDate(at, intervalSeconds), at);
      }
    });
    return { kind: 'confirmed', txHash };
  }
  if (obs.status === 'FAILED') {
    await deps.uow.run(async ({ pulls }) => {
      const error = 'Transaction failed on-chain';
      if (await pulls.resolve(attempt.id, { status: 'failed', ledger: obs.ledger, error, at })) {
        await pulls.markPastDue(attempt.subscription_id, at);
      }
    });
    return { kind: 'failed', txHash };
  }
  if (isExpired(attempt, obs)) {
    await deps.uow.run(({ pulls }) => pulls.resolve(attempt.id, { status: 'expired', error: 'not included before its time bound', at }));
    return { kind: 'expired', txHash };
  }
  return { kind: 'pending', txHash };
}
