// GET /events/{id}: another merchant's event is 404 `Event not found`, as if it did not exist.
import { sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { Repos } from '../unit-of-work.ts';
import type { StoredEvent } from './events-port.ts';

export const eventNotFound = () => new BillingError('NOT_FOUND', 'Event not found');

export function makeGetEvent(deps: Pick<Repos, 'events'>) {
  return async function getEvent({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<StoredEvent> {
    const event = await deps.events.findById(input.id);
    if (!event || !sees(ctx, event.merchant_id)) throw eventNotFound();
    return event;
  };
}
