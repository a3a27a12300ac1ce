// The merchant a key or signing-key route names: visible to the actor and not deleted, else
// `Merchant not found` (the same answer for another merchant's id as for an unknown one).
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import { mustSee } from './scope.ts';

export async function liveMerchant(
  ctx: Ctx,
  merchants: Pick<MerchantsRepo, 'findById'>,
  id: string,
): Promise<Merchant> {
  mustSee(ctx, id, 'Merchant');
  const merchant = await merchants.findById(id);
  if (!merchant || merchant.deleted_at) throw notFound('Merchant');
  return merchant;
}
