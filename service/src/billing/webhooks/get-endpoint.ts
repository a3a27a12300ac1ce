// GET /webhook-endpoints/{id}, and the lookup the other endpoint verbs share: another merchant's
// endpoint, or a deleted one, is 404 `Webhook endpoint not found`.
import { sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { Repos } from '../unit-of-work.ts';
import type { SealedEndpoint, WebhookEndpoint } from './webhooks-port.ts';

export const endpointNotFound = () => new BillingError('NOT_FOUND', 'Webhook endpoint not found');

export async function visibleEndpoint(
  ctx: Ctx,
  webhooks: Pick<Repos['webhooks'], 'findEndpoint'>,
  id: string,
): Promise<SealedEndpoint> {
  const endpoint = await webhooks.findEndpoint(id);
  if (!endpoint || !sees(ctx, endpoint.merchant_id)) throw endpointNotFound();
  return endpoint;
}

export function makeGetEndpoint(deps: { webhooks: Pick<Repos['webhooks'], 'findEndpoint'> }) {
  return async function getEndpoint({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<WebhookEndpoint> {
    const { secret: _s, previous: _p, ...endpoint } = await visibleEndpoint(ctx, deps.webhooks, input.id);
    return endpoint;
  };
}
