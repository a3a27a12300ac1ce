// Creating a plan. The spec wants a merchant_id that does not exist to fail with the database's
// own foreign-key message (500), so an absent merchant is left to the constraint. A merchant
// that exists but was soft-deleted gets 404; the repository checks that inside the INSERT. A
// merchant key creates plans for its own merchant only: any other merchant_id is 404 too.
// The plan and its plan.created event are one statement (storage writes both from the inserted
// row): no transaction's extra round trips, and never one without the other.
import { randomUUID } from 'node:crypto';
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { EventRow } from '../events/emit-event.ts';
import type { Plan } from '../model.ts';
import type { NewPlan, PlansRepo } from './plans-port.ts';

export type CreatePlanInput = Omit<NewPlan, 'token_contract_id' | 'retry_schedule_seconds' | 'final_status'> &
  Partial<Pick<NewPlan, 'retry_schedule_seconds' | 'final_status'>> & { token_contract_id?: string };

/** The dunning defaults in force when a plan is created, stored on it (DUNNING_SCHEDULE_SECONDS). */
export interface PlanDefaults {
  defaultTokenContractId: string | undefined;
  retryScheduleSeconds: number[];
}

export function makeCreatePlan(deps: { plans: Pick<PlansRepo, 'insert'>; eventRow: EventRow } & PlanDefaults) {
  return async function createPlan({ ctx, input }: { ctx: Ctx; input: CreatePlanInput }): Promise<Plan> {
    mustSee(ctx, input.merchant_id, 'Merchant');
    const row: NewPlan = {
      ...input,
      id: randomUUID(),
      // The default in force at creation is stored on the plan, so changing it later moves no plan.
      token_contract_id: input.token_contract_id ?? deps.defaultTokenContractId ?? null,
      retry_schedule_seconds: input.retry_schedule_seconds ?? deps.retryScheduleSeconds,
      final_status: input.final_status ?? 'past_due',
    };
    // The event's object is the plan as it will be; created_at comes from the inserted row.
    const draft: Plan = { ...row, id: row.id!, archived_at: null, created_at: new Date(0) };
    const { merchant_id: _sameAsRow, ...event } = deps.eventRow(ctx.actor, { type: 'plan.created', object: draft });
    const plan = await deps.plans.insert(row, event);
    if (!plan) throw notFound('Merchant');
    return plan;
  };
}
