// GET /events, newest first. A merchant key sees its own merchant's events only; the operator
// sees every merchant's, or one merchant's with merchant_id.
import { scopedMerchant } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { Repos } from '../unit-of-work.ts';
import type { EventType } from './event-types.ts';
import type { StoredEvent } from './events-port.ts';

export interface ListEventsInput {
  type?: EventType;
  object_id?: string;
  /** The operator's filter; a merchant key is always confined to its own merchant. */
  merchant_id?: string;
  page: PageRequest;
}

export function makeListEvents(deps: Pick<Repos, 'events'>) {
  return async function listEvents({ ctx, input }: { ctx: Ctx; input: ListEventsInput }): Promise<Page<StoredEvent>> {
    const own = scopedMerchant(ctx);
    // Another merchant's listing is 404, as for every listing (product.md).
    if (own && input.merchant_id && input.merchant_id !== own) throw notFound('Merchant');
    return deps.events.list(
      { merchant_id: own ?? input.merchant_id, type: input.type, object_id: input.object_id },
      input.page,
    );
  };
}
