// A merchant's plans, one page at a time. A soft-deleted merchant has no listing (404), the same
// answer GET /merchants/{id} gives.
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Plan } from '../model.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { PlansRepo } from './plans-port.ts';

export function makeListMerchantPlans(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  plans: Pick<PlansRepo, 'listByMerchant'>;
}) {
  return async function listMerchantPlans({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { merchant_id: string; page: PageRequest };
  }): Promise<Page<Plan>> {
    mustSee(ctx, input.merchant_id, 'Merchant');
    const merchant = await deps.merchants.findById(input.merchant_id);
    if (!merchant || merchant.deleted_at) throw notFound('Merchant');
    return deps.plans.listByMerchant(merchant.id, input.page);
  };
}
