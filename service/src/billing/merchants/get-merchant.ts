// Reading a merchant. A soft-deleted merchant reads as not found: the row is kept for history
// (plans and subscriptions still reference it) but it is no longer part of the API's world.
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo } from './merchants-port.ts';

export function makeGetMerchant(deps: { merchants: Pick<MerchantsRepo, 'findById'> }) {
  return async function getMerchant({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<Merchant> {
    mustSee(ctx, input.id, 'Merchant');
    const merchant = await deps.merchants.findById(input.id);
    if (!merchant || merchant.deleted_at) throw notFound('Merchant');
    return merchant;
  };
}
