// GET /subscriptions/{id}/pulls: every attempt, newest first, so a merchant can see what was
// sent, what landed and what was never included.
import { sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { SubscriptionsRepo } from '../subscriptions/subscriptions-port.ts';
import type { PullRecord, PullsRepo } from './pulls-port.ts';

const HISTORY_LIMIT = 500;

export function makeListPulls(deps: {
  subscriptions: Pick<SubscriptionsRepo, 'findById'>;
  pulls: Pick<PullsRepo, 'listForSubscription'>;
}) {
  return async function listPulls({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<PullRecord[]> {
    const subscription = await deps.subscriptions.findById(input.id);
    if (!subscription || !sees(ctx, subscription.merchant_id)) throw notFound('Subscription');
    return deps.pulls.listForSubscription(input.id, HISTORY_LIMIT);
  };
}
