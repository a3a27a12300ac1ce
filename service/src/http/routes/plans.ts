// POST /plans and GET /plans/{id} (spec section 4).
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams, NoBody } from '../../schemas/common.ts';
import { CreatePlanBody, planJson, planResponses, planWithMerchantJson } from '../../schemas/plans.ts';

export const planRoutes: RoutesPlugin = async (app, { deps }) => {
  const { createPlan, getPlan, archivePlan } = deps.verbs;

  app.post<{ Body: CreatePlanBody }>(
    '/plans',
    { schema: { body: CreatePlanBody, response: planResponses.create }, config: { access: 'merchant' } },
    async (request, reply) => {
      const plan = await createPlan({ ctx: ctxOf(request), input: request.body });
      return reply.code(201).send({ message: 'Plan created successfully', plan: planJson(plan) });
    },
  );

  app.get<{ Params: IdParams }>(
    '/plans/:id',
    // A checkout page reads the plan without a key, in both modes.
    { schema: { params: IdParams, response: planResponses.get }, config: { access: 'public' } },
    async (request) => {
      const plan = await getPlan({ ctx: ctxOf(request), input: request.params });
      return { plan: planWithMerchantJson(plan) };
    },
  );

  app.post<{ Params: IdParams }>(
    '/plans/:id/archive',
    { schema: { params: IdParams, body: NoBody, response: planResponses.archive }, config: { access: 'merchant' } },
    async (request) => ({ plan: planJson(await archivePlan({ ctx: ctxOf(request), input: request.params })) }),
  );
};
