// DELETE /merchants/{id}/api-keys/{key_id}: the key stops working at once on this replica, and
// within the key cache's TTL on the others (key-cache.ts). A merchant may revoke the very key it
// calls with. Revoking twice, or a key of another merchant, is 404 `API key not found`.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { ApiKey } from '../model.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import type { KeyCache } from './key-cache.ts';
import { liveMerchant } from './live-merchant.ts';

export function makeRevokeApiKey(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  uow: UnitOfWork;
  emit: EmitEvent;
  cache: Pick<KeyCache, 'forgetKey'>;
}) {
  return async function revokeApiKey({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { merchant_id: string; key_id: string };
  }): Promise<ApiKey> {
    const merchant = await liveMerchant(ctx, deps.merchants, input.merchant_id);
    const revoked = await deps.uow.run(async (tx) => {
      const key = await tx.apiKeys.revoke(merchant.id, input.key_id);
      if (!key) throw notFound('API key');
      await deps.emit(tx, ctx.actor, { type: 'api_key.revoked', object: key });
      return key;
    });
    deps.cache.forgetKey(revoked.id);
    return revoked;
  };
}
