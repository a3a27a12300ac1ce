// POST /merchants, GET /merchants, GET /merchants/{id}, DELETE /merchants/{id}. Not in the spec;
// product.md adds them so that plans have an owner. Creating and listing merchants is the
// operator's (in keys mode only the operator key may); a merchant key reads and deletes its own.
import type { RoutesPlugin } from '../route-plugin.ts';
import { pageOf } from '../../schemas/cursors.ts';
import { ctxOf } from '../context.ts';
import { IdParams, toIso } from '../../schemas/common.ts';
import { PlanListQuery } from '../../schemas/listings.ts';
import { CreateMerchantBody, merchantJson, merchantResponses } from '../../schemas/merchants.ts';

export const merchantRoutes: RoutesPlugin = async (app, { deps }) => {
  const { createMerchant, getMerchant, deleteMerchant, listMerchants } = deps.verbs;

  app.post<{ Body: CreateMerchantBody }>(
    '/merchants',
    { schema: { body: CreateMerchantBody, response: merchantResponses.create }, config: { access: 'operator' } },
    async (request, reply) => {
      const { merchant, apiKey } = await createMerchant({ ctx: ctxOf(request), input: request.body });
      return reply
        .code(201)
        .send({ message: 'Merchant created', merchant: merchantJson(merchant), api_key: apiKey.secret });
    },
  );

  // Same query as a merchant's plan listing: limit and cursor, oldest first.
  app.get<{ Querystring: PlanListQuery }>(
    '/merchants',
    { schema: { querystring: PlanListQuery, response: merchantResponses.list }, config: { access: 'operator' } },
    async (request) => {
      const q = request.query;
      const page = await listMerchants({ ctx: ctxOf(request), input: { page: pageOf(deps.cursors, q) } });
      return {
        merchants: page.items.map(merchantJson),
        next_cursor: page.next ? deps.cursors.encode(q.order, page.next) : null,
      };
    },
  );

  app.get<{ Params: IdParams }>(
    '/merchants/:id',
    { schema: { params: IdParams, response: merchantResponses.get }, config: { access: 'merchant' } },
    async (request) => {
      const merchant = await getMerchant({ ctx: ctxOf(request), input: request.params });
      return { merchant: merchantJson(merchant) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/merchants/:id',
    { schema: { params: IdParams, response: merchantResponses.delete }, config: { access: 'merchant' } },
    async (request) => {
      const merchant = await deleteMerchant({ ctx: ctxOf(request), input: request.params });
      // deleted_at is always set on what a soft delete returns.
      return {
        message: 'Merchant deleted',
        merchant: { ...merchantJson(merchant), deleted_at: toIso(merchant.deleted_at as Date) },
      };
    },
  );
};
