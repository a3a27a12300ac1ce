// Client-side signing: POST /subscriptions/{id}/pulls/prepare and POST /pulls/{id}/submit
// (billing/pulls/client-signing.ts). Submit answers exactly as /trigger-pull does.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams, NoBody } from '../../schemas/common.ts';
import { preparedResponses, pullResponses, SubmitPullBody } from '../../schemas/pulls.ts';

export const clientSigningRoutes: RoutesPlugin = async (app, { deps }) => {
  const { preparePull, submitPull } = deps.pullVerbs;

  app.post<{ Params: IdParams }>(
    '/subscriptions/:id/pulls/prepare',
    {
      schema: { params: IdParams, body: NoBody, response: preparedResponses.prepare },
      config: { access: 'merchant' },
    },
    async (request, reply) => {
      const prepared = await preparePull({ ctx: ctxOf(request), input: request.params });
      return reply.code(201).send({
        ...prepared,
        pull: { ...prepared.pull, expires_at: prepared.pull.expires_at.toISOString() },
      });
    },
  );

  app.post<{ Params: IdParams; Body: SubmitPullBody }>(
    '/pulls/:id/submit',
    {
      schema: { params: IdParams, body: SubmitPullBody, response: pullResponses.trigger },
      config: { access: 'merchant' },
    },
    async (request, reply) => {
      const result = await submitPull({
        ctx: ctxOf(request),
        input: { id: request.params.id, signature: request.body.signature },
      });
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
};
