// Archiving a plan: it takes no new subscriptions (POST /subscriptions answers 409 plan_archived),
// and its existing subscriptions go on. A plan's price and interval never change in place — live
// vaults hold them — so a new price is a new plan, and the old one is archived.
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Plan } from '../model.ts';
import type { Clock } from '../clock.ts';
import type { PlansRepo } from './plans-port.ts';

export function makeArchivePlan(deps: { plans: Pick<PlansRepo, 'findOffered' | 'archive'>; clock: Clock }) {
  return async function archivePlan({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<Plan> {
    const plan = await deps.plans.findOffered(input.id);
    if (!plan) throw notFound('Plan');
    mustSee(ctx, plan.merchant_id, 'Plan');
    // Archiving twice keeps the first instant.
    return (await deps.plans.archive(input.id, deps.clock.now())) ?? plan;
  };
}
