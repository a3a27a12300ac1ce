// GET /webhook-endpoints: a merchant key lists its own; the operator every merchant's, or one's.
import { scopedMerchant } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Repos } from '../unit-of-work.ts';
import type { WebhookEndpoint } from './webhooks-port.ts';

export function makeListEndpoints(deps: { webhooks: Pick<Repos['webhooks'], 'listEndpoints'> }) {
  return async function listEndpoints({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { merchant_id?: string };
  }): Promise<WebhookEndpoint[]> {
    const own = scopedMerchant(ctx);
    // Another merchant's listing is 404, as for every listing (product.md).
    if (own && input.merchant_id && input.merchant_id !== own) throw notFound('Merchant');
    return deps.webhooks.listEndpoints(own ?? input.merchant_id);
  };
}
