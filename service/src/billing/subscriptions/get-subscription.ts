// Reading a subscription, whatever became of its plan's merchant: it is the subscriber's record.
import { sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Subscription } from '../model.ts';
import type { SubscriptionsRepo } from './subscriptions-port.ts';

export function makeGetSubscription(deps: { subscriptions: Pick<SubscriptionsRepo, 'findById'> }) {
  return async function getSubscription({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<Subscription> {
    const subscription = await deps.subscriptions.findById(input.id);
    if (!subscription || !sees(ctx, subscription.merchant_id)) throw notFound('Subscription');
    return subscription;
  };
}
