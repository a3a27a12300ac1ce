// Live merchants, one page at a time: what an operator looks through by hand (`billing merchants list`).
// The route is operator-only (http/auth.ts); the verb holds the same line itself, so no other caller
// can hand a merchant's key the list of every merchant.
import { operatorOnly } from '../access/authorize.ts';
import type { Ctx } from '../context.ts';
import type { Merchant } from '../model.ts';
import type { MerchantsRepo } from './merchants-port.ts';
import type { Page, PageRequest } from '../paging.ts';

export function makeListMerchants(deps: { merchants: Pick<MerchantsRepo, 'list'> }) {
  return async function listMerchants({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { page: PageRequest };
  }): Promise<Page<Merchant>> {
    if (ctx.actor.kind === 'merchant') throw operatorOnly();
    return deps.merchants.list(input.page);
  };
}
