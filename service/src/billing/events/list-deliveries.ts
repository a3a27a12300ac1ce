// GET /events/{id}/deliveries: each endpoint's delivery of the event, with every attempt's answer.
import type { Ctx } from '../context.ts';
import type { Repos } from '../unit-of-work.ts';
import type { Delivery } from '../webhooks/webhooks-port.ts';
import { makeGetEvent } from './get-event.ts';

export function makeListDeliveries(deps: Pick<Repos, 'events' | 'webhooks'>) {
  const getEvent = makeGetEvent(deps);
  return async function listDeliveries({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<Delivery[]> {
    const event = await getEvent({ ctx, input });
    return deps.webhooks.listDeliveries(event.id);
  };
}
