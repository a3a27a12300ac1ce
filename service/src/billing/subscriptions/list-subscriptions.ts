// Subscriptions of a merchant or of a plan, filtered and paged. The scope must exist and be
// live: an unknown or soft-deleted merchant is 404 Merchant not found, a plan that is not offered
// (unknown, or its merchant deleted) is 404 Plan not found, as on the single-resource reads.
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { SubscriptionListItem } from '../model.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { PlansRepo } from '../plans/plans-port.ts';
import type { SubscriptionFilter, SubscriptionsRepo } from './subscriptions-port.ts';

export type ListSubscriptionsInput = {
  scope: { merchant_id: string } | { plan_id: string };
  filter: Omit<SubscriptionFilter, 'merchant_id'>;
  page: PageRequest;
};

export function makeListSubscriptions(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  plans: Pick<PlansRepo, 'findOffered'>;
  subscriptions: Pick<SubscriptionsRepo, 'list'>;
}) {
  return async function listSubscriptions({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: ListSubscriptionsInput;
  }): Promise<Page<SubscriptionListItem>> {
    const { scope, filter, page } = input;
    if ('merchant_id' in scope) {
      mustSee(ctx, scope.merchant_id, 'Merchant');
      // The listing has rows only for a live merchant; an empty page may mean there is none.
      const found = await deps.subscriptions.list({ ...filter, merchant_id: scope.merchant_id }, page);
      if (found.items.length > 0) return found;
      const merchant = await deps.merchants.findById(scope.merchant_id);
      if (!merchant || merchant.deleted_at) throw notFound('Merchant');
      return found;
    }
    const plan = await deps.plans.findOffered(scope.plan_id);
    if (!plan) throw notFound('Plan');
    mustSee(ctx, plan.merchant_id, 'Plan');
    return deps.subscriptions.list({ ...filter, plan_id: plan.id }, page);
  };
}
