// Recording a subscriber after their on-chain approve and create_vault. The first cycle is due at
// once: next_billing_date is the clock's now. A second subscription of the same wallet to the same
// plan is refused by the table's unique constraint, whose message the spec wants passed through.
// A merchant key records subscribers on its own plans only; another merchant's plan is 404.
import { scopedMerchant, sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError, notFound } from '../errors.ts';
import type { Subscription } from '../model.ts';
import type { Clock, PlansRepo, SubscriptionsRepo } from '../ports.ts';

export interface CreateSubscriptionInput {
  plan_id: string;
  customer_wallet_address: string;
}

export function makeCreateSubscription(deps: {
  clock: Clock;
  subscriptions: Pick<SubscriptionsRepo, 'insert'>;
  plans: Pick<PlansRepo, 'findOffered'>;
}) {
  return async function createSubscription({ ctx, input }: { ctx: Ctx; input: CreateSubscriptionInput }): Promise<Subscription> {
    // A plan of a soft-deleted merchant is not offered any more: same answer as no plan.
    const subscription = await deps.subscriptions.insert({
      ...input,
      next_billing_date: deps.clock.now(),
      only_merchant_id: scopedMerchant(ctx),
    });
    if (!subscription) {
      // Not offered: absent, its merchant deleted, another merchant's (all 404), or archived.
      const plan = await deps.plans.findOffered(input.plan_id);
      if (plan?.archived_at && sees(ctx, plan.merchant_id)) {
        throw new BillingError('CONFLICT', 'Plan is archived: it takes no new subscriptions', { code: 'plan_archived' });
      }
      throw notFound('Plan');
    }
    return subscription;
  };
}
