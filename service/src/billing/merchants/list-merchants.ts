// Live merchants, one page at a time: what an operator looks through by hand (`billing merchants list`).
import type { Ctx } from '../context.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo, Page, PageRequest } from '../ports.ts';

export function makeListMerchants(deps: { merchants: Pick<MerchantsRepo, 'list'> }) {
  return async function listMerchants({ input }: { ctx: Ctx; input: { page: PageRequest } }): Promise<Page<Merchant>> {
    return deps.merchants.list(input.page);
  };
}
