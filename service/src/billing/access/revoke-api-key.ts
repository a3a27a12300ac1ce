// DELETE /merchants/{id}/api-keys/{key_id}: the key stops working at once on this replica, and
// within the key cache's TTL on the others (key-cache.ts). A merchant may revoke the very key it
// calls with. Revoking twice, or a key of another merchant, is 404 `API key not found`.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { ApiKey } from '../model.ts';
import type { MerchantsRepo } from '../ports.ts';
import type { ApiKeysRepo } from './api-keys-port.ts';
import type { KeyCache } from './key-cache.ts';
import { liveMerchant } from './live-merchant.ts';

export function makeRevokeApiKey(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  apiKeys: Pick<ApiKeysRepo, 'revoke'>;
  cache: Pick<KeyCache, 'forgetKey'>;
}) {
  return async function revokeApiKey({ ctx, input }: { ctx: Ctx; input: { merchant_id: string; key_id: string } }): Promise<ApiKey> {
    const merchant = await liveMerchant(ctx, deps.merchants, input.merchant_id);
    const revoked = await deps.apiKeys.revoke(merchant.id, input.key_id);
    if (!revoked) throw notFound('API key');
    deps.cache.forgetKey(revoked.id);
    return revoked;
  };
}
