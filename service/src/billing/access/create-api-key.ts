// POST /merchants/{id}/api-keys: a new key for a merchant, by the operator or by one of the
// merchant's own keys. The key is returned once; only its hash and prefix are stored.
import type { Ctx } from '../context.ts';
import type { ApiKey } from '../model.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import type { ApiKeysRepo } from './api-keys-port.ts';
import { newKeyMaterial } from './key-material.ts';
import { liveMerchant } from './live-merchant.ts';

export interface IssuedApiKey {
  key: ApiKey;
  /** The key itself, for the answer only. */
  secret: string;
}

/** Also used when a merchant is created (its first key, in the same transaction). */
export async function issueApiKey(
  apiKeys: Pick<ApiKeysRepo, 'insert'>,
  merchantId: string,
  label: string | null,
): Promise<IssuedApiKey> {
  const material = newKeyMaterial();
  const key = await apiKeys.insert({
    merchant_id: merchantId,
    key_hash: material.hash,
    prefix: material.prefix,
    label,
  });
  return { key, secret: material.secret };
}

export function makeCreateApiKey(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  uow: UnitOfWork;
  emit: EmitEvent;
}) {
  return async function createApiKey({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { merchant_id: string; label?: string };
  }): Promise<IssuedApiKey> {
    const merchant = await liveMerchant(ctx, deps.merchants, input.merchant_id);
    return deps.uow.run(async (tx) => {
      const issued = await issueApiKey(tx.apiKeys, merchant.id, input.label ?? null);
      await deps.emit(tx, ctx.actor, { type: 'api_key.created', object: issued.key });
      return issued;
    });
  };
}
