// POST /trigger-pull (spec section 4) and the pull history of a subscription.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams } from '../../schemas/common.ts';
import { pullJson, pullResponses, TriggerPullBody } from '../../schemas/pulls.ts';

export const triggerPullRoutes: RoutesPlugin = async (app, { deps }) => {
  const { triggerPull, listPulls } = deps.pullVerbs;

  app.post<{ Body: TriggerPullBody }>(
    '/trigger-pull',
    { schema: { body: TriggerPullBody, response: pullResponses.trigger }, config: { access: 'merchant' } },
    async (request, reply) => {
      const result = await triggerPull({ ctx: ctxOf(request), input: request.body });
      switch (result.kind) {
        case 'confirmed':
          return reply.code(200).send({ message: 'Successfully pulled funds on-chain!', txHash: result.txHash });
        case 'pending':
          return reply
            .code(202)
            .send({ message: 'Transaction submitted but not yet confirmed', txHash: result.txHash });
        case 'failed':
          return reply.code(502).send({ error: 'Transaction failed on-chain', txHash: result.txHash });
      }
    },
  );

  app.get<{ Params: IdParams }>(
    '/subscriptions/:id/pulls',
    { schema: { params: IdParams, response: pullResponses.history }, config: { access: 'merchant' } },
    async (request) => {
      const pulls = await listPulls({ ctx: ctxOf(request), input: request.params });
      return { pulls: pulls.map(pullJson) };
    },
  );
};
