// GET /api-keys/current: who the request's key is. The dashboard signs in with a key alone and
// learns its merchant from it; the operator key answers as the operator, with no merchant.
import type { Ctx } from '../context.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import { makeGetMerchant } from '../merchants/get-merchant.ts';

export interface CurrentKey {
  actor: 'merchant' | 'operator';
  merchant: Merchant | null;
  keyId: string | null;
}

export function makeCurrentKey(deps: { merchants: Pick<MerchantsRepo, 'findById'> }) {
  const getMerchant = makeGetMerchant(deps);
  return async function currentKey({ ctx }: { ctx: Ctx }): Promise<CurrentKey> {
    const actor = ctx.actor;
    // The route needs a key (credential access): only merchant and operator actors arrive here.
    if (actor.kind !== 'merchant') return { actor: 'operator', merchant: null, keyId: null };
    const merchant = await getMerchant({ ctx, input: { id: actor.merchantId } });
    return { actor: 'merchant', merchant, keyId: actor.keyId };
  };
}
