// Reading a plan for a checkout: the plan and its owner's wallet (the subscriber's vault needs
// it). A plan whose merchant was soft-deleted is no longer offered and reads as not found.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { PlanWithMerchant } from '../model.ts';
import type { PlansRepo } from '../ports.ts';

export function makeGetPlan(deps: { plans: Pick<PlansRepo, 'findOffered'> }) {
  return async function getPlan({ input }: { ctx: Ctx; input: { id: string } }): Promise<PlanWithMerchant> {
    const plan = await deps.plans.findOffered(input.id);
    if (!plan) throw notFound('Plan');
    return plan;
  };
}
