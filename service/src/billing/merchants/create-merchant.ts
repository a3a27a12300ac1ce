// A merchant is who owns plans and receives the pulled funds. Creating one is a plain insert:
// the HTTP schema has checked the name and the wallet's format, the table's checks back it up.
import type { Ctx } from '../context.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo, NewMerchant } from '../ports.ts';

export type CreateMerchantInput = NewMerchant;

export function makeCreateMerchant(deps: { merchants: Pick<MerchantsRepo, 'insert'> }) {
  return async function createMerchant({ input }: { ctx: Ctx; input: CreateMerchantInput }): Promise<Merchant> {
    return deps.merchants.insert(input);
  };
}
