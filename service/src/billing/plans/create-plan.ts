// Creating a plan. The spec wants a merchant_id that does not exist to fail with the database's
// own foreign-key message (500), so an absent merchant is left to the constraint. A merchant
// that exists but was soft-deleted is something the database cannot see; that one is 404.
// Window accepted: a merchant deleted between the read and the insert still gets this plan;
// its plans are hidden from then on and a pull for it answers 404, so no money moves.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Plan } from '../model.ts';
import type { MerchantsRepo, NewPlan, PlansRepo } from '../ports.ts';

export type CreatePlanInput = NewPlan;

export function makeCreatePlan(deps: { merchants: Pick<MerchantsRepo, 'findById'>; plans: Pick<PlansRepo, 'insert'> }) {
  return async function createPlan({ input }: { ctx: Ctx; input: CreatePlanInput }): Promise<Plan> {
    const merchant = await deps.merchants.findById(input.merchant_id);
    if (merchant?.deleted_at) throw notFound('Merchant');
    return deps.plans.insert(input);
  };
}
