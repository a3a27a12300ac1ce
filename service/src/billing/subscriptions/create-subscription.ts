// Recording a subscriber after their on-chain approve and create_vault. The first cycle is due at
// once: next_billing_date is the clock's now. A second subscription of the same wallet to the same
// plan is refused by the table's unique constraint, whose message the spec wants passed through.
// A merchant key records subscribers on its own plans only; another merchant's plan is 404.
import { scopedMerchant } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Subscription } from '../model.ts';
import type { Clock, SubscriptionsRepo } from '../ports.ts';

export interface CreateSubscriptionInput {
  plan_id: string;
  customer_wallet_address: string;
}

export function makeCreateSubscription(deps: {
  clock: Clock;
  subscriptions: Pick<SubscriptionsRepo, 'insert'>;
}) {
  return async function createSubscription({ ctx, input }: { ctx: Ctx; input: CreateSubscriptionInput }): Promise<Subscription> {
    // A plan of a soft-deleted merchant is not offered any more: same answer as no plan.
    const subscription = await deps.subscriptions.insert({
      ...input,
      next_billing_date: deps.clock.now(),
      only_merchant_id: scopedMerchant(ctx),
    });
    if (!subscription) throw notFound('Plan');
    return subscription;
  };
}
