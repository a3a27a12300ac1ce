// DELETE /webhook-endpoints/{id}: no more deliveries to it; the ones still pending end as failed
// (`endpoint deleted`), and its delivery log stays readable under each event.
import type { Ctx } from '../context.ts';
import type { Repos } from '../unit-of-work.ts';
import { endpointNotFound, visibleEndpoint } from './get-endpoint.ts';
import type { WebhookEndpoint } from './webhooks-port.ts';

export function makeDeleteEndpoint(deps: { webhooks: Pick<Repos['webhooks'], 'findEndpoint' | 'deleteEndpoint'> }) {
  return async function deleteEndpoint({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<WebhookEndpoint> {
    await visibleEndpoint(ctx, deps.webhooks, input.id);
    const deleted = await deps.webhooks.deleteEndpoint(input.id);
    if (!deleted) throw endpointNotFound();
    return deleted;
  };
}
