// GET /merchants/{id}/plans, GET /merchants/{id}/subscriptions, GET /plans/{id}/subscriptions:
// cursor-paged listings (keyset, see storage/repos/keyset.ts). Query strings are validated and
// the cursor decoded by the schemas; handlers call one verb and re-encode the next cursor.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams } from '../schemas/common.ts';
import { encodeCursor, listResponses, MerchantSubscriptionsQuery, PlanListQuery, PlanSubscriptionsQuery } from '../schemas/listings.ts';
import type { ListOrder } from '../schemas/listings.ts';
import { planJson } from '../schemas/plans.ts';
import { subscriptionJson } from '../schemas/subscriptions.ts';
import type { PageKey } from '../../billing/ports.ts';

const cursorOf = (order: ListOrder, next: PageKey | null) => (next ? encodeCursor(order, next) : null);

export const listingRoutes: RoutesPlugin = async (app, { deps }) => {
  const { listMerchantPlans, listSubscriptions } = deps.verbs;

  app.get<{ Params: IdParams; Querystring: PlanListQuery }>(
    '/merchants/:id/plans',
    { schema: { params: IdParams, querystring: PlanListQuery, response: listResponses.plans } },
    async (request) => {
      const q = request.query;
      const page = await listMerchantPlans({ ctx: ctxOf(request), input: { merchant_id: request.params.id, page: q.page } });
      return { plans: page.items.map(planJson), next_cursor: cursorOf(q.order, page.next) };
    },
  );

  app.get<{ Params: IdParams; Querystring: MerchantSubscriptionsQuery }>(
    '/merchants/:id/subscriptions',
    { schema: { params: IdParams, querystring: MerchantSubscriptionsQuery, response: listResponses.subscriptions } },
    async (request) => {
      const { status, plan_id, due_before, page, order } = request.query;
      const result = await listSubscriptions({
        ctx: ctxOf(request),
        input: { scope: { merchant_id: request.params.id }, filter: { status, plan_id, due_before }, page },
      });
      return { subscriptions: result.items.map(subscriptionJson), next_cursor: cursorOf(order, result.next) };
    },
  );

  app.get<{ Params: IdParams; Querystring: PlanSubscriptionsQuery }>(
    '/plans/:id/subscriptions',
    { schema: { params: IdParams, querystring: PlanSubscriptionsQuery, response: listResponses.subscriptions } },
    async (request) => {
      const { status, due_before, page, order } = request.query;
      const result = await listSubscriptions({
        ctx: ctxOf(request),
        input: { scope: { plan_id: request.params.id }, filter: { status, due_before }, page },
      });
      return { subscriptions: result.items.map(subscriptionJson), next_cursor: cursorOf(order, result.next) };
    },
  );
};
