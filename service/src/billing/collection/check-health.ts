// Early warning: ahead of each due date (WARNING_LEAD_SECONDS), what the ledger says about the
// next pull is recorded on the subscription (GET /subscriptions/{id} shows it): an allowance that
// will have expired by then, one too small, a balance too low, a vault gone or not matching the
// plan. Re-checked at most once per recheck period per subscription; a read that fails leaves
// the previous health in place.
import { systemCtx } from '../context.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { Clock } from '../clock.ts';
import type { Repos, UnitOfWork } from '../unit-of-work.ts';
import type { PullsRepo } from '../pulls/pulls-port.ts';
import { PullRejection, type VaultGateway } from '../pulls/vault-gateway.ts';
import { healthAt } from './preflight.ts';

const WARNING_EVENTS = {
  allowance_expiring: 'subscription.allowance_expiring',
  allowance_insufficient: 'subscription.allowance_insufficient',
  allowance_revoked: 'subscription.allowance_insufficient',
  balance_low: 'subscription.balance_low',
} as const;

const CTX = systemCtx('health-check');

export interface HealthDeps {
  uow: UnitOfWork;
  emit: EmitEvent;
  pulls: Pick<PullsRepo, 'loadContext'>;
  repos: Pick<Repos, 'collection'>;
  gateway: Pick<VaultGateway, 'inspect'>;
  clock: Clock;
  contractId: string | undefined;
  leadSeconds: number;
  recheckSeconds: number;
}

const BATCH = 50;

export function makeCheckHealth(deps: HealthDeps) {
  return async function checkHealth(): Promise<number> {
    const contractId = deps.contractId;
    if (!contractId) return 0;
    const now = deps.clock.now();
    const ids = await deps.repos.collection.listForHealthCheck(
      new Date(now.getTime() + deps.leadSeconds * 1000),
      new Date(now.getTime() - deps.recheckSeconds * 1000),
      BATCH,
    );
    let checked = 0;
    for (const id of ids) {
      const ctx = await deps.pulls.loadContext(id);
      if (!ctx) continue;
      try {
        const ins = await deps.gateway.inspect({ user: ctx.customerWallet, merchant: ctx.merchantWallet, contractId });
        const health = healthAt(ctx, ins, ctx.nextBillingDate, ctx.collectedBefore);
        await deps.uow.run(async (tx) => {
          const change = await tx.collection.recordHealth(id, health, deps.clock.now());
          // A warning is an event once, when it appears (not at every re-check).
          const type = WARNING_EVENTS[health.status as keyof typeof WARNING_EVENTS];
          if (change && type && change.previous !== health.status)
            await deps.emit(tx, CTX.actor, { type, object: change.subscription });
        });
        checked++;
      } catch (err) {
        if (!(err instanceof PullRejection)) throw err;
      }
    }
    return checked;
  };
}
