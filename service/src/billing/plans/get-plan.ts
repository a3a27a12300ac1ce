// Reading a plan for a checkout: the plan and its owner's wallet (the subscriber's vault needs
// it). A plan whose merchant was soft-deleted is no longer offered and reads as not found. No key
// is needed; with one, another merchant's plan reads as not found like everywhere else.
import { sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { PlanWithMerchant } from '../model.ts';
import type { PlansRepo } from './plans-port.ts';

export function makeGetPlan(deps: { plans: Pick<PlansRepo, 'findOffered'> }) {
  return async function getPlan({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<PlanWithMerchant> {
    const plan = await deps.plans.findOffered(input.id);
    if (!plan || !sees(ctx, plan.merchant_id)) throw notFound('Plan');
    return plan;
  };
}
