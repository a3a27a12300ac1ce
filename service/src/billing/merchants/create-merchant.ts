// A merchant is who owns plans and receives the pulled funds. It is created together with its
// first API key, in one transaction: a merchant never exists without a way to act as it, and a key
// never points at a merchant that failed to be written. The key is in the answer only (shown once).
import type { IssuedApiKey } from '../access/create-api-key.ts';
import { issueApiKey } from '../access/create-api-key.ts';
import type { Ctx } from '../context.ts';
import type { Merchant } from '../model.ts';
import type { NewMerchant, UnitOfWork } from '../ports.ts';

export type CreateMerchantInput = NewMerchant;

export function makeCreateMerchant(deps: { uow: UnitOfWork }) {
  return async function createMerchant({ input }: { ctx: Ctx; input: CreateMerchantInput }): Promise<{ merchant: Merchant; apiKey: IssuedApiKey }> {
    return deps.uow.run(async ({ merchants, apiKeys }) => {
      const merchant = await merchants.insert(input);
      return { merchant, apiKey: await issueApiKey(apiKeys, merchant.id, null) };
    });
  };
}
