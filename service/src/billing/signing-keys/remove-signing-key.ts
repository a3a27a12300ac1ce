// DELETE /merchants/{id}/signing-key: the ciphertext is deleted; /trigger-pull then needs a
// merchant_secret again. A merchant without a stored key answers 404 `Signing key not found`.
import { liveMerchant } from '../access/live-merchant.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { UnitOfWork } from '../unit-of-work.ts';

export function makeRemoveSigningKey(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  uow: UnitOfWork;
  emit: EmitEvent;
}) {
  return async function removeSigningKey({ ctx, input }: { ctx: Ctx; input: { merchant_id: string } }): Promise<void> {
    const merchant = await liveMerchant(ctx, deps.merchants, input.merchant_id);
    await deps.uow.run(async (tx) => {
      const removed = await tx.signingKeys.remove(merchant.id);
      if (!removed) throw notFound('Signing key');
      await deps.emit(tx, ctx.actor, { type: 'signing_key.removed', object: removed });
    });
  };
}
