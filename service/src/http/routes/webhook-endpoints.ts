// A merchant's webhook endpoints: create (the secret is in this answer only), list, read, delete,
// rotate the secret. Credential routes: a key in both modes.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams } from '../../schemas/common.ts';
import {
  CreateEndpointBody,
  EndpointListQuery,
  endpointJson,
  endpointResponses,
  RotateSecretBody,
} from '../../schemas/webhook-endpoints.ts';

export const webhookEndpointRoutes: RoutesPlugin = async (app, { deps }) => {
  const { createEndpoint, listEndpoints, getEndpoint, deleteEndpoint, rotateSecret } = deps.eventVerbs;
  const config = { access: 'credential' } as const;

  app.post<{ Body: CreateEndpointBody }>(
    '/webhook-endpoints',
    { schema: { body: CreateEndpointBody, response: endpointResponses.create }, config },
    async (request, reply) => {
      const { endpoint, secret } = await createEndpoint({ ctx: ctxOf(request), input: request.body });
      return reply.code(201).send({ webhook_endpoint: endpointJson(endpoint), secret });
    },
  );

  app.get<{ Querystring: EndpointListQuery }>(
    '/webhook-endpoints',
    { schema: { querystring: EndpointListQuery, response: endpointResponses.list }, config },
    async (request) => {
      const endpoints = await listEndpoints({ ctx: ctxOf(request), input: request.query });
      return { webhook_endpoints: endpoints.map(endpointJson) };
    },
  );

  app.get<{ Params: IdParams }>(
    '/webhook-endpoints/:id',
    { schema: { params: IdParams, response: endpointResponses.get }, config },
    async (request) => {
      return { webhook_endpoint: endpointJson(await getEndpoint({ ctx: ctxOf(request), input: request.params })) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/webhook-endpoints/:id',
    { schema: { params: IdParams, response: endpointResponses.delete }, config },
    async (request) => {
      const endpoint = await deleteEndpoint({ ctx: ctxOf(request), input: request.params });
      return { message: 'Webhook endpoint deleted', webhook_endpoint: endpointJson(endpoint) };
    },
  );

  app.post<{ Params: IdParams; Body: RotateSecretBody }>(
    '/webhook-endpoints/:id/rotate-secret',
    { schema: { params: IdParams, body: RotateSecretBody, response: endpointResponses.rotate }, config },
    async (request) => {
      const { endpoint, secret } = await rotateSecret({
        ctx: ctxOf(request),
        input: { id: request.params.id, overlap_seconds: request.body.overlap_seconds },
      });
      return { webhook_endpoint: endpointJson(endpoint), secret };
    },
  );
};
