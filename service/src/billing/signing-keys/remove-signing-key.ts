// DELETE /merchants/{id}/signing-key: the ciphertext is deleted; /trigger-pull then needs a
// merchant_secret again. A merchant without a stored key answers 404 `Signing key not found`.
import { liveMerchant } from '../access/live-merchant.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { MerchantsRepo } from '../ports.ts';
import type { SigningKeysRepo } from './signing-keys-port.ts';

export function makeRemoveSigningKey(deps: { merchants: Pick<MerchantsRepo, 'findById'>; signingKeys: Pick<SigningKeysRepo, 'remove'> }) {
  return async function removeSigningKey({ ctx, input }: { ctx: Ctx; input: { merchant_id: string } }): Promise<void> {
    const merchant = await liveMerchant(ctx, deps.merchants, input.merchant_id);
    if (!(await deps.signingKeys.remove(merchant.id))) throw notFound('Signing key');
  };
}
