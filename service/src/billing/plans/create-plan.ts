// Creating a plan. The spec wants a merchant_id that does not exist to fail with the database's
// own foreign-key message (500), so an absent merchant is left to the constraint. A merchant
// that exists but was soft-deleted gets 404; the repository checks that inside the INSERT. A
// merchant key creates plans for its own merchant only: any other merchant_id is 404 too.
// The plan and its plan.created event commit together.
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { Plan } from '../model.ts';
import type { NewPlan } from './plans-port.ts';
import type { UnitOfWork } from '../unit-of-work.ts';

export type CreatePlanInput = Omit<NewPlan, 'token_contract_id' | 'retry_schedule_seconds' | 'final_status'> &
  Partial<Pick<NewPlan, 'retry_schedule_seconds' | 'final_status'>> & { token_contract_id?: string };

/** The dunning defaults in force when a plan is created, stored on it (DUNNING_SCHEDULE_SECONDS). */
export interface PlanDefaults {
  defaultTokenContractId: string | undefined;
  retryScheduleSeconds: number[];
}

export function makeCreatePlan(deps: { uow: UnitOfWork; emit: EmitEvent } & PlanDefaults) {
  return async function createPlan({ ctx, input }: { ctx: Ctx; input: CreatePlanInput }): Promise<Plan> {
    mustSee(ctx, input.merchant_id, 'Merchant');
    // The default in force at creation is stored on the plan, so changing it later moves no plan.
    const token = input.token_contract_id ?? deps.defaultTokenContractId ?? null;
    return deps.uow.run(async (tx) => {
      const plan = await tx.plans.insert({
        ...input,
        token_contract_id: token,
        retry_schedule_seconds: input.retry_schedule_seconds ?? deps.retryScheduleSeconds,
        final_status: input.final_status ?? 'past_due',
      });
      if (!plan) throw notFound('Merchant');
      await deps.emit(tx, ctx.actor, { type: 'plan.created', object: plan });
      return plan;
    });
  };
}
