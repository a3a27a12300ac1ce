// A merchant is who owns plans and receives the pulled funds. It is created together with its
// first API key, in one transaction: a merchant never exists without a way to act as it, and a key
// never points at a merchant that failed to be written. The key is in the answer only (shown once);
// its api_key.created event commits with it.
import type { IssuedApiKey } from '../access/create-api-key.ts';
import { issueApiKey } from '../access/create-api-key.ts';
import type { Ctx } from '../context.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { Merchant } from '../model.ts';
import type { NewMerchant } from './merchants-port.ts';
import type { UnitOfWork } from '../unit-of-work.ts';

export type CreateMerchantInput = NewMerchant;

export function makeCreateMerchant(deps: { uow: UnitOfWork; emit: EmitEvent }) {
  return async function createMerchant({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: CreateMerchantInput;
  }): Promise<{ merchant: Merchant; apiKey: IssuedApiKey }> {
    return deps.uow.run(async (tx) => {
      const merchant = await tx.merchants.insert(input);
      const apiKey = await issueApiKey(tx.apiKeys, merchant.id, null);
      await deps.emit(tx, ctx.actor, { type: 'api_key.created', object: apiKey.key });
      return { merchant, apiKey };
    });
  };
}
