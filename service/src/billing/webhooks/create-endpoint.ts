// POST /webhook-endpoints: a URL of the merchant's that receives the event types it lists. Its
// signing secret (whsec_…) is in this answer only; it is stored sealed. In production the URL must
// be https and must not reach loopback, private or link-local addresses (checked again at every
// delivery, since a name can be pointed elsewhere after it was registered).
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { Repos } from '../unit-of-work.ts';
import type { SecretBox } from '../signing-keys/signing-keys-port.ts';
import { endpointOwner } from './endpoint-owner.ts';
import { sealEndpointSecret } from './endpoint-secret.ts';
import type { EndpointEventTypes, UrlPolicy, WebhookEndpoint, WebhookSigner } from './webhooks-port.ts';

export interface CreateEndpointInput {
  url: string;
  event_types: EndpointEventTypes;
  merchant_id?: string;
}

export function makeCreateEndpoint(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  webhooks: Pick<Repos['webhooks'], 'insertEndpoint'>;
  box: Pick<SecretBox, 'seal' | 'primaryKekId'>;
  signer: Pick<WebhookSigner, 'newSecret'>;
  urlPolicy: UrlPolicy;
}) {
  return async function createEndpoint({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: CreateEndpointInput;
  }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const merchant = await endpointOwner(ctx, deps.merchants, input.merchant_id);
    const refused = await deps.urlPolicy.refuse(input.url);
    if (refused) throw new BillingError('VALIDATION', `Invalid input on url: ${refused}`);
    const id = randomUUID();
    const secret = deps.signer.newSecret();
    const event_types = [...new Set(input.event_types)];
    const endpoint = await deps.webhooks.insertEndpoint({
      id,
      merchant_id: merchant.id,
      url: input.url,
      event_types,
      secret: sealEndpointSecret(deps.box, id, secret),
    });
    return { endpoint, secret };
  };
}
