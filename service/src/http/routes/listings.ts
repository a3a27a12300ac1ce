// GET /merchants/{id}/plans, GET /merchants/{id}/subscriptions, GET /plans/{id}/subscriptions:
// cursor-paged listings (keyset, see storage/repos/keyset.ts). Query strings are validated by the
// schemas, the cursor checked and decoded by the app's codec; handlers call one verb.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { pageOf, type ListOrder } from '../../schemas/cursors.ts';
import { IdParams } from '../../schemas/common.ts';
import {
  listResponses,
  MerchantSubscriptionsQuery,
  PlanListQuery,
  PlanSubscriptionsQuery,
} from '../../schemas/listings.ts';
import { planJson } from '../../schemas/plans.ts';
import { subscriptionJson } from '../../schemas/subscriptions.ts';
import type { PageKey } from '../../billing/paging.ts';

export const listingRoutes: RoutesPlugin = async (app, { deps }) => {
  const { listMerchantPlans, listSubscriptions } = deps.verbs;
  const { cursors } = deps;
  const cursorOf = (order: ListOrder, next: PageKey | null) => (next ? cursors.encode(order, next) : null);
  const access = { access: 'merchant' } as const;

  app.get<{ Params: IdParams; Querystring: PlanListQuery }>(
    '/merchants/:id/plans',
    { schema: { params: IdParams, querystring: PlanListQuery, response: listResponses.plans }, config: access },
    async (request) => {
      const q = request.query;
      const page = await listMerchantPlans({
        ctx: ctxOf(request),
        input: { merchant_id: request.params.id, page: pageOf(cursors, q) },
      });
      return { plans: page.items.map(planJson), next_cursor: cursorOf(q.order, page.next) };
    },
  );

  app.get<{ Params: IdParams; Querystring: MerchantSubscriptionsQuery }>(
    '/merchants/:id/subscriptions',
    {
      schema: { params: IdParams, querystring: MerchantSubscriptionsQuery, response: listResponses.subscriptions },
      config: access,
    },
    async (request) => {
      const { status, plan_id, due_before, order } = request.query;
      const result = await listSubscriptions({
        ctx: ctxOf(request),
        input: {
          scope: { merchant_id: request.params.id },
          filter: { status, plan_id, due_before },
          page: pageOf(cursors, request.query),
        },
      });
      return { subscriptions: result.items.map(subscriptionJson), next_cursor: cursorOf(order, result.next) };
    },
  );

  app.get<{ Params: IdParams; Querystring: PlanSubscriptionsQuery }>(
    '/plans/:id/subscriptions',
    {
      schema: { params: IdParams, querystring: PlanSubscriptionsQuery, response: listResponses.subscriptions },
      config: access,
    },
    async (request) => {
      const { status, due_before, order } = request.query;
      const result = await listSubscriptions({
        ctx: ctxOf(request),
        input: {
          scope: { plan_id: request.params.id },
          filter: { status, due_before },
          page: pageOf(cursors, request.query),
        },
      });
      return { subscriptions: result.items.map(subscriptionJson), next_cursor: cursorOf(order, result.next) };
    },
  );
};
