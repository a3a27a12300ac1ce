// GET /events, GET /events/{id}, GET /events/{id}/deliveries, POST /events/{id}/redeliver.
// Credential routes: a key in both modes (product.md), the merchant's own or the operator's.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { pageOf } from '../../schemas/cursors.ts';
import { eventJson } from '../../billing/events/event-json.ts';
import { IdParams } from '../../schemas/common.ts';
import { deliveryJson, EventListQuery, eventResponses, RedeliverBody } from '../../schemas/events.ts';

export const eventRoutes: RoutesPlugin = async (app, { deps }) => {
  const { listEvents, getEvent, listDeliveries, redeliverEvent } = deps.eventVerbs;
  const { cursors } = deps;
  const config = { access: 'credential' } as const;

  app.get<{ Querystring: EventListQuery }>(
    '/events',
    { schema: { querystring: EventListQuery, response: eventResponses.list }, config },
    async (request) => {
      const { type, object_id, merchant_id } = request.query;
      const page = await listEvents({
        ctx: ctxOf(request),
        input: { type, object_id, merchant_id, page: pageOf(cursors, { ...request.query, order: 'newest' }) },
      });
      return { events: page.items.map(eventJson), next_cursor: page.next ? cursors.encode('newest', page.next) : null };
    },
  );

  app.get<{ Params: IdParams }>(
    '/events/:id',
    { schema: { params: IdParams, response: eventResponses.get }, config },
    async (request) => {
      return { event: eventJson(await getEvent({ ctx: ctxOf(request), input: request.params })) };
    },
  );

  app.get<{ Params: IdParams }>(
    '/events/:id/deliveries',
    { schema: { params: IdParams, response: eventResponses.deliveries }, config },
    async (request) => {
      const deliveries = await listDeliveries({ ctx: ctxOf(request), input: request.params });
      return { deliveries: deliveries.map(deliveryJson) };
    },
  );

  app.post<{ Params: IdParams }>(
    '/events/:id/redeliver',
    { schema: { params: IdParams, body: RedeliverBody, response: eventResponses.redeliver }, config },
    async (request, reply) => {
      const { deliveries } = await redeliverEvent({ ctx: ctxOf(request), input: request.params });
      return reply.code(202).send({ message: 'Event scheduled for redelivery', deliveries });
    },
  );
};
