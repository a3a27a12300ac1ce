// GET /merchants/{id}/api-keys: the merchant's live keys (prefix, label, dates), never a key.
import type { Ctx } from '../context.ts';
import type { ApiKey } from '../model.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { ApiKeysRepo } from './api-keys-port.ts';
import { liveMerchant } from './live-merchant.ts';

export function makeListApiKeys(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  apiKeys: Pick<ApiKeysRepo, 'listActive'>;
}) {
  return async function listApiKeys({ ctx, input }: { ctx: Ctx; input: { merchant_id: string } }): Promise<ApiKey[]> {
    const merchant = await liveMerchant(ctx, deps.merchants, input.merchant_id);
    return deps.apiKeys.listActive(merchant.id);
  };
}
