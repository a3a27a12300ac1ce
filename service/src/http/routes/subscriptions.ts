// POST /subscriptions (spec section 4) and GET /subscriptions/{id} (product.md).
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams, NoBody } from '../../schemas/common.ts';
import {
  CancelSubscriptionBody,
  CreateSubscriptionBody,
  subscriptionDetailJson,
  subscriptionJson,
  subscriptionResponses,
} from '../../schemas/subscriptions.ts';

export const subscriptionRoutes: RoutesPlugin = async (app, { deps }) => {
  const { createSubscription, getSubscription, cancelSubscription, pauseSubscription, resumeSubscription } = deps.verbs;

  app.post<{ Body: CreateSubscriptionBody }>(
    '/subscriptions',
    {
      schema: { body: CreateSubscriptionBody, response: subscriptionResponses.create },
      config: { access: 'merchant' },
    },
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
      return { subscription: subscriptionDetailJson(subscription) };
    },
  );

  app.post<{ Params: IdParams; Body: CancelSubscriptionBody }>(
    '/subscriptions/:id/cancel',
    {
      schema: { params: IdParams, body: CancelSubscriptionBody, response: subscriptionResponses.get },
      config: { access: 'merchant' },
    },
    async (request) => {
      const input = { id: request.params.id, at_period_end: request.body.at_period_end ?? false };
      return { subscription: subscriptionDetailJson(await cancelSubscription({ ctx: ctxOf(request), input })) };
    },
  );

  for (const [action, verb] of [
    ['pause', pauseSubscription],
    ['resume', resumeSubscription],
  ] as const) {
    app.post<{ Params: IdParams }>(
      `/subscriptions/:id/${action}`,
      {
        schema: { params: IdParams, body: NoBody, response: subscriptionResponses.get },
        config: { access: 'merchant' },
      },
      async (request) => ({
        subscription: subscriptionDetailJson(await verb({ ctx: ctxOf(request), input: request.params })),
      }),
    );
  }
};
