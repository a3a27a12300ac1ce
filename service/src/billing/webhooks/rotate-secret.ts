// POST /webhook-endpoints/{id}/rotate-secret: a new secret, shown once, signs from now on; the one
// it replaces keeps signing beside it (two signatures in webhook-signature) for the overlap, so a
// receiver can deploy the new secret without refusing a single delivery. A second rotation within
// the overlap drops the oldest secret at once: at most two secrets ever sign.
import type { Ctx } from '../context.ts';
import type { Repos } from '../unit-of-work.ts';
import type { SecretBox } from '../signing-keys/signing-keys-port.ts';
import { sealEndpointSecret } from './endpoint-secret.ts';
import { endpointNotFound, visibleEndpoint } from './get-endpoint.ts';
import type { WebhookEndpoint, WebhookSigner } from './webhooks-port.ts';

/** Default overlap: a day, long enough for a deploy, short enough that a leaked secret dies soon. */
export const DEFAULT_OVERLAP_SECONDS = 86_400;

export function makeRotateSecret(deps: {
  webhooks: Pick<Repos['webhooks'], 'findEndpoint' | 'rotateSecret'>;
  box: Pick<SecretBox, 'seal' | 'primaryKekId'>;
  signer: Pick<WebhookSigner, 'newSecret'>;
}) {
  return async function rotateSecret({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { id: string; overlap_seconds?: number };
  }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const current = await visibleEndpoint(ctx, deps.webhooks, input.id);
    const secret = deps.signer.newSecret();
    // Real time, not the service's clock: the expiry is compared with real time when signing.
    const until = new Date(Date.now() + (input.overlap_seconds ?? DEFAULT_OVERLAP_SECONDS) * 1000);
    const endpoint = await deps.webhooks.rotateSecret(
      current.id,
      sealEndpointSecret(deps.box, current.id, secret),
      until,
    );
    if (!endpoint) throw endpointNotFound();
    return { endpoint, secret };
  };
}
