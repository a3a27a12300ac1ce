// Resolves attempts left pending by a 202, a crash or a deploy: on start-up and on a timer.
// Several replicas may run it at once; settleAttempt's conditional updates apply each outcome
// once, and the only cost of overlap is a duplicate getTransaction.
// A round has a time limit: it stops taking new attempts once the limit has passed (each RPC
// call has its own), so a slow or unreachable network cannot hold the next round back.
import { systemCtx } from '../context.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { Clock } from '../clock.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import type { PullsRepo } from './pulls-port.ts';
import { partiesOf, settleAttempt, type AttemptOutcome } from './settle-attempt.ts';
import type { VaultGateway } from './vault-gateway.ts';

export interface ReconcileDeps {
  uow: UnitOfWork;
  pulls: PullsRepo;
  gateway: Pick<VaultGateway, 'observe' | 'establishForgotten'>;
  clock: Clock;
  contractId: string | undefined;
  roundLimitMs: number;
  emit: EmitEvent;
}

const BATCH = 100;
/** Outcomes the reconciler observes are events whose actor is the reconciler itself. */
const ACTOR = systemCtx('reconciler').actor;

export type ReconcileCounts = Record<AttemptOutcome['kind'] | 'unreachable', number>;

export function makeReconcilePending(deps: ReconcileDeps) {
  return async function reconcilePending(): Promise<ReconcileCounts> {
    const counts = { confirmed: 0, failed: 0, pending: 0, expired: 0, unreachable: 0 };
    const deadline = Date.now() + deps.roundLimitMs;
    const pending = await deps.pulls.listPending(BATCH);
    for (const attempt of pending) {
      if (Date.now() >= deadline) break; // the rest waits for the next round
      const ctx = await deps.pulls.loadContext(attempt.subscription_id);
      if (!ctx) continue;
      try {
        const obs = await deps.gateway.observe(attempt.tx_hash, partiesOf(ctx));
        counts[(await settleAttempt(deps, attempt, ctx, obs, ACTOR)).kind]++;
      } catch {
        counts.unreachable++; // network unreachable: try again on the next round
      }
    }
    return counts;
  };
}
