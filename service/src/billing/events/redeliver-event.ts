// POST /events/{id}/redeliver: sends the event again to every enabled endpoint of its merchant that
// listens to its type, now, with a fresh retry window; the receiver sees the same webhook-id, so
// it can drop what it already has. An endpoint disabled since is skipped (it would fail anyway).
import type { Ctx } from '../context.ts';
import type { Repos } from '../unit-of-work.ts';
import { makeGetEvent } from './get-event.ts';

export function makeRedeliverEvent(deps: Pick<Repos, 'events' | 'webhooks'>) {
  const getEvent = makeGetEvent(deps);
  return async function redeliverEvent({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { id: string };
  }): Promise<{ deliveries: number }> {
    const event = await getEvent({ ctx, input });
    return { deliveries: await deps.webhooks.redeliver(event.id, event.merchant_id, event.type) };
  };
}
