// Recording a subscriber after their on-chain approve and create_vault. The first cycle is due at
// once: next_billing_date is the clock's now. A second subscription of the same wallet to the same
// plan is refused by the table's unique constraint, whose message the spec wants passed through.
// A merchant key records subscribers on its own plans only; another merchant's plan is 404.
//
// The subscription.created event is written by the INSERT itself, not in a transaction around it:
// everything the event shows (the spec's five fields) is known before the row exists once the id is
// chosen here, and one statement is atomic on its own, so the outbox costs this hot path a row, not
// three more round trips (BEGIN, the event, COMMIT). Other verbs use emit() inside a UnitOfWork.
import { randomUUID } from 'node:crypto';
import { scopedMerchant, sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError, notFound } from '../errors.ts';
import type { EventRow } from '../events/emit-event.ts';
import type { Subscription } from '../model.ts';
import type { Clock } from '../clock.ts';
import type { PlansRepo } from '../plans/plans-port.ts';
import type { SubscriptionsRepo } from './subscriptions-port.ts';

export interface CreateSubscriptionInput {
  plan_id: string;
  customer_wallet_address: string;
}

export function makeCreateSubscription(deps: {
  clock: Clock;
  subscriptions: Pick<SubscriptionsRepo, 'insert'>;
  plans: Pick<PlansRepo, 'findOffered'>;
  eventRow: EventRow;
}) {
  return async function createSubscription({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: CreateSubscriptionInput;
  }): Promise<Subscription> {
    const id = randomUUID();
    const now = deps.clock.now();
    // The row as it will be (merchant_id comes from the plan, in the statement; the event's JSON does not show it).
    const draft: Subscription = {
      id,
      ...input,
      merchant_id: '',
      status: 'active',
      next_billing_date: now,
      cancel_at: null,
      canceled_at: null,
      paused_from: null,
      health_status: 'unknown',
      health_checked_at: null,
      health_detail: null,
      created_at: now,
      updated_at: now,
    };
    const { merchant_id: _fromPlan, ...event } = deps.eventRow(ctx.actor, {
      type: 'subscription.created',
      object: draft,
    });
    // A plan of a soft-deleted merchant is not offered any more: same answer as no plan.
    const subscription = await deps.subscriptions.insert(
      { id, ...input, next_billing_date: now, only_merchant_id: scopedMerchant(ctx) },
      event,
    );
    if (!subscription) {
      // Not offered: absent, its merchant deleted, another merchant's (all 404), or archived.
      const plan = await deps.plans.findOffered(input.plan_id);
      if (plan?.archived_at && sees(ctx, plan.merchant_id)) {
        throw new BillingError('CONFLICT', 'Plan is archived: it takes no new subscriptions', {
          code: 'plan_archived',
        });
      }
      throw notFound('Plan');
    }
    return subscription;
  };
}
