// Whose endpoints a request manages: a merchant key's own merchant; the operator names one
// (merchant_id), since it holds no merchant of its own. In open mode these routes still need a key
// (product.md: routes that handle credentials), so an anonymous actor never reaches here.
import { liveMerchant } from '../access/live-merchant.ts';
import { scopedMerchant } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';

export async function endpointOwner(
  ctx: Ctx,
  merchants: Pick<MerchantsRepo, 'findById'>,
  merchantId: string | undefined,
): Promise<Merchant> {
  const id = merchantId ?? scopedMerchant(ctx);
  if (id === undefined)
    throw new BillingError(
      'VALIDATION',
      'Invalid input on merchant_id: the operator key must name the merchant (merchant_id)',
    );
  return liveMerchant(ctx, merchants, id);
}
