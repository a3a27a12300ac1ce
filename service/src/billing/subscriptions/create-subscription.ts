// Recording a subscriber after their on-chain approve and create_vault. The first cycle is due at
// once: next_billing_date is the clock's now. A second subscription of the same wallet to the same
// plan is refused by the table's unique constraint, whose message the spec wants passed through.
// A merchant key records subscribers on its own plans only; another merchant's plan is 404.
// The subscription and its subscription.created event commit together.
import { scopedMerchant } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { Subscription } from '../model.ts';
import type { Clock, UnitOfWork } from '../ports.ts';

export interface CreateSubscriptionInput {
  plan_id: string;
  customer_wallet_address: string;
}

export function makeCreateSubscription(deps: { clock: Clock; uow: UnitOfWork; emit: EmitEvent }) {
  return async function createSubscription({ ctx, input }: { ctx: Ctx; input: CreateSubscriptionInput }): Promise<Subscription> {
    return deps.uow.run(async (tx) => {
      // A plan of a soft-deleted merchant is not offered any more: same answer as no plan.
      const subscription = await tx.subscriptions.insert({
        ...input,
        next_billing_date: deps.clock.now(),
        only_merchant_id: scopedMerchant(ctx),
      });
      if (!subscription) throw notFound('Plan');
      await deps.emit(tx, ctx.actor, { type: 'subscription.created', object: subscription });
      return subscription;
    });
  };
}
