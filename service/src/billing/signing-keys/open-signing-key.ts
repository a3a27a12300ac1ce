// The stored key of a merchant, opened for one pull: /trigger-pull without merchant_secret. The
// plaintext lives only in this call; the gateway turns it into a key object that cannot leak it.
import { BillingError } from '../errors.ts';
import type { MerchantKey, VaultGateway } from '../pulls/vault-gateway.ts';
import { sealContext } from './seal-context.ts';
import type { SecretBox, SigningKeysRepo } from './signing-keys-port.ts';

export const NO_SIGNING_KEY =
  'No merchant_secret in the request and no signing key stored for this merchant: send merchant_secret, or store the key with PUT /merchants/{id}/signing-key';

export function makeOpenSigningKey(deps: {
  signingKeys: Pick<SigningKeysRepo, 'find'>;
  box: Pick<SecretBox, 'open'>;
  gateway: Pick<VaultGateway, 'parseSecret'>;
}) {
  return async function openSigningKey(merchantId: string): Promise<MerchantKey> {
    const stored = await deps.signingKeys.find(merchantId);
    if (!stored) throw new BillingError('VALIDATION', NO_SIGNING_KEY);
    const key = deps.gateway.parseSecret(deps.box.open(stored, sealContext(merchantId, stored.public_key)));
    // Sealing checked it; a failure here means the row was altered outside the service.
    if (!key || key.publicKey !== stored.public_key)
      throw new BillingError('SIGNING_KEY_STORE', 'The stored signing key does not open to the key it was stored as');
    return key;
  };
}
