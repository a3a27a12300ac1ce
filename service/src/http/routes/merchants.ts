// POST /merchants, GET /merchants/{id}, DELETE /merchants/{id}. Not in the spec; product.md adds
// them so that plans have an owner. Handlers validate (schemas), call one verb, shape the answer.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams, toIso } from '../schemas/common.ts';
import { CreateMerchantBody, merchantJson, merchantResponses } from '../schemas/merchants.ts';

export const merchantRoutes: RoutesPlugin = async (app, { deps }) => {
  const { createMerchant, getMerchant, deleteMerchant } = deps.verbs;

  app.post<{ Body: CreateMerchantBody }>(
    '/merchants',
    { schema: { body: CreateMerchantBody, response: merchantResponses.create } },
    async (request, reply) => {
      const merchant = await createMerchant({ ctx: ctxOf(request), input: request.body });
      return reply.code(201).send({ message: 'Merchant created', merchant: merchantJson(merchant) });
    },
  );

  app.get<{ Params: IdParams }>(
    '/merchants/:id',
    { schema: { params: IdParams, response: merchantResponses.get } },
    async (request) => {
      const merchant = await getMerchant({ ctx: ctxOf(request), input: request.params });
      return { merchant: merchantJson(merchant) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/merchants/:id',
    { schema: { params: IdParams, response: merchantResponses.delete } },
    async (request) => {
      const merchant = await deleteMerchant({ ctx: ctxOf(request), input: request.params });
      // deleted_at is always set on what a soft delete returns.
      return { message: 'Merchant deleted', merchant: { ...merchantJson(merchant), deleted_at: toIso(merchant.deleted_at as Date) } };
    },
  );
};
