// Early warning: ahead of each due date (WARNING_LEAD_SECONDS), what the ledger says about the
// next pull is recorded on the subscription (GET /subscriptions/{id} shows it): an allowance that
// will have expired by then, one too small, a balance too low, a vault gone or not matching the
// plan. Re-checked at most once per recheck period per subscription; a read that fails leaves
// the previous health in place.
import type { Clock, Repos } from '../ports.ts';
import type { PullsRepo } from '../pulls/pulls-port.ts';
import { PullRejection, type VaultGateway } from '../pulls/vault-gateway.ts';
import { healthAt } from './preflight.ts';

export interface HealthDeps {
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
        await deps.repos.collection.recordHealth(id, healthAt(ctx, ins, ctx.nextBillingDate, ctx.collectedBefore), deps.clock.now());
        checked++;
      } catch (err) {
        if (!(err instanceof PullRejection)) throw err;
      }
    }
    return checked;
  };
}
