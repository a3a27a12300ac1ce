// PUT /merchants/{id}/signing-key: the merchant's own wallet key, stored so that /trigger-pull can
// sign without a merchant_secret in the request (unattended collection). Only the wallet's own
// master key is accepted: pulls use the wallet as the transaction source, so the key must be the
// one that signs for it (an additional signer the account authorises is not supported).
// Stored sealed under SIGNING_KEY_ENCRYPTION_KEY; without it the box refuses (500), never plain.
import { liveMerchant } from '../access/live-merchant.ts';
import type { Ctx } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { StoredSigningKey } from '../model.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import type { VaultGateway } from '../pulls/vault-gateway.ts';
import { sealContext } from './seal-context.ts';
import type { SecretBox } from './signing-keys-port.ts';

export function makeSetSigningKey(deps: {
  merchants: Pick<MerchantsRepo, 'findById'>;
  uow: UnitOfWork;
  emit: EmitEvent;
  box: Pick<SecretBox, 'seal'>;
  gateway: Pick<VaultGateway, 'parseSecret'>;
}) {
  return async function setSigningKey({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { merchant_id: string; secret: string };
  }): Promise<StoredSigningKey> {
    const merchant = await liveMerchant(ctx, deps.merchants, input.merchant_id);
    const key = deps.gateway.parseSecret(input.secret);
    if (!key)
      throw new BillingError('VALIDATION', 'Invalid input on secret: secret must be a valid Stellar secret key (S…)');
    if (key.publicKey !== merchant.wallet_address) {
      throw new BillingError(
        'VALIDATION',
        `Invalid input on secret: secret is not the key of the merchant's wallet ${merchant.wallet_address}`,
      );
    }
    const sealed = deps.box.seal(input.secret, sealContext(merchant.id, key.publicKey));
    return deps.uow.run(async (tx) => {
      const stored = await tx.signingKeys.put({ merchant_id: merchant.id, public_key: key.publicKey, ...sealed });
      await deps.emit(tx, ctx.actor, { type: 'signing_key.set', object: stored });
      return stored;
    });
  };
}
