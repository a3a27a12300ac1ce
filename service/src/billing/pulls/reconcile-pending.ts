// Resolves attempts left pending by a 202, a crash or a deploy: on start-up and on a timer.
// Several replicas may run it at once; settleAttempt's conditional updates apply each outcome
// once, and the only cost of overlap is a duplicate getTransaction.
import type { Clock, UnitOfWork } from '../ports.ts';
import type { PullsRepo } from './pulls-port.ts';
import { settleAttempt, type AttemptOutcome } from './settle-attempt.ts';
import type { VaultGateway } from './vault-gateway.ts';

export interface ReconcileDeps {
  uow: UnitOfWork;
  pulls: PullsRepo;
  gateway: Pick<VaultGateway, 'observe'>;
  clock: Clock;
}

const BATCH = 100;

export function makeReconcilePending(deps: ReconcileDeps) {
  return async function reconcilePending(): Promise<Record<AttemptOutcome['kind'], number>> {
    const counts = { confirmed: 0, failed: 0, pending: 0, expired: 0 };
    const pending = await deps.pulls.listPending(BATCH);
    for (const attempt of pending) {
      const ctx = await deps.pulls.loadContext(attempt.subscription_id);
      if (!ctx) continue;
      try {
        const outcome = await settleAttempt(deps, attempt, ctx.intervalSeconds, await deps.gateway.observe(attempt.tx_hash));
        counts[outcome.kind]++;
      } catch {
        counts.pending++; // network unreachable: try again on the next round
      }
    }
    return counts;
  };
}
