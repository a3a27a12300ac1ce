// POST /subscriptions (spec section 4) and GET /subscriptions/{id} (product.md).
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams } from '../schemas/common.ts';
import { CreateSubscriptionBody, subscriptionJson, subscriptionResponses } from '../schemas/subscriptions.ts';

export const subscriptionRoutes: RoutesPlugin = async (app, { deps }) => {
  const { createSubscription, getSubscription } = deps.verbs;

  app.post<{ Body: CreateSubscriptionBody }>(
    '/subscriptions',
    { schema: { body: CreateSubscriptionBody, response: subscriptionResponses.create }, config: { access: 'merchant' } },
    async (request, reply) => {
      const subscription = await createSubscription({ ctx: ctxOf(request), input: request.body });
      return reply.code(201).send({ message: 'Subscription created', subscription: subscriptionJson(subscription) });
    },
  );

  app.get<{ Params: IdParams }>(
    '/subscriptions/:id',
    { schema: { params: IdParams, response: subscriptionResponses.get }, config: { access: 'merchant' } },
    async (request) => {
      const subscription = await getSubscription({ ctx: ctxOf(request), input: request.params });
      return { subscription: subscriptionJson(subscription) };
    },
  );
};
