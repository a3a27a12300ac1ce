// GET /merchants/{id}/pulls (cursor-paged, filters from, to, status) and
// GET /merchants/{id}/pulls/daily-totals: the dashboard's books and revenue chart, public API.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { pageOf } from '../../schemas/cursors.ts';
import { IdParams } from '../../schemas/common.ts';
import {
  DailyTotalsQuery,
  dailyTotalJson,
  MerchantPullsQuery,
  merchantPullsResponses,
} from '../../schemas/merchant-pulls.ts';
import { pullJson } from '../../schemas/pulls.ts';

export const merchantPullRoutes: RoutesPlugin = async (app, { deps }) => {
  const { listMerchantPulls, merchantDailyTotals } = deps.pullVerbs;
  const { cursors } = deps;
  const access = { access: 'merchant' } as const;

  app.get<{ Params: IdParams; Querystring: MerchantPullsQuery }>(
    '/merchants/:id/pulls',
    {
      schema: { params: IdParams, querystring: MerchantPullsQuery, response: merchantPullsResponses.list },
      config: access,
    },
    async (request) => {
      const { from, to, status } = request.query;
      const page = await listMerchantPulls({
        ctx: ctxOf(request),
        input: { filter: { merchant_id: request.params.id, from, to, status }, page: pageOf(cursors, request.query) },
      });
      return {
        pulls: page.items.map(pullJson),
        next_cursor: page.next ? cursors.encode('created', page.next) : null,
      };
    },
  );

  app.get<{ Params: IdParams; Querystring: DailyTotalsQuery }>(
    '/merchants/:id/pulls/daily-totals',
    {
      schema: { params: IdParams, querystring: DailyTotalsQuery, response: merchantPullsResponses.dailyTotals },
      config: access,
    },
    async (request) => {
      const totals = await merchantDailyTotals({
        ctx: ctxOf(request),
        input: { merchant_id: request.params.id, ...request.query },
      });
      return { from: totals.from.toISOString(), to: totals.to.toISOString(), days: totals.days.map(dailyTotalJson) };
    },
  );
};
