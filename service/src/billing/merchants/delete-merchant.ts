// Soft delete: history is never erased. After it, GET answers 404, no new plan can name the
// merchant, its plans stop being offered, its API keys stop working, and /trigger-pull answers
// 404 `Merchant not found`. Deleting twice is 404 too: there is no live merchant left to delete.
// A merchant key may delete its own merchant (product.md), never another.
import type { KeyCache } from '../access/key-cache.ts';
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo } from './merchants-port.ts';

export function makeDeleteMerchant(deps: {
  merchants: Pick<MerchantsRepo, 'softDelete'>;
  keyCache: Pick<KeyCache, 'forgetMerchant'>;
}) {
  return async function deleteMerchant({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<Merchant> {
    mustSee(ctx, input.id, 'Merchant');
    const deleted = await deps.merchants.softDelete(input.id);
    if (!deleted) throw notFound('Merchant');
    // Its keys are refused by the database from now on; this replica's cache forgets them too.
    deps.keyCache.forgetMerchant(deleted.id);
    return deleted;
  };
}
