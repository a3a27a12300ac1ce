// Soft delete: history is never erased. After it, GET answers 404, no new plan can name the
// merchant, its plans stop being offered, and /trigger-pull answers 404 `Merchant not found`.
// Deleting twice is 404 too: there is no live merchant left to delete.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo } from '../ports.ts';

export function makeDeleteMerchant(deps: { merchants: Pick<MerchantsRepo, 'softDelete'> }) {
  return async function deleteMerchant({ input }: { ctx: Ctx; input: { id: string } }): Promise<Merchant> {
    const deleted = await deps.merchants.softDelete(input.id);
    if (!deleted) throw notFound('Merchant');
    return deleted;
  };
}
