// `billing signing-key rotate-kek`: re-seals every stored signing key that is not yet under the
// primary key-encryption key (the first of SIGNING_KEY_ENCRYPTION_KEY). Until it has run, old
// ciphertexts keep opening as long as their key stays listed. A key that cannot be opened (its
// KEK no longer listed) is counted and left as it is; the run goes on with the others.
import { BillingError } from '../errors.ts';
import type { SecretBox, SigningKeysRepo } from './signing-keys-port.ts';
import { sealContext } from './seal-context.ts';

const BATCH = 100;

export interface RotateKekResult {
  primaryKekId: string;
  rewrapped: number;
  /** Merchants whose key could not be opened with the configured keys. */
  unreadable: string[];
}

export function makeRotateKek(deps: { signingKeys: Pick<SigningKeysRepo, 'listNotUnder' | 'rewrap'>; box: SecretBox }) {
  return async function rotateKek(): Promise<RotateKekResult> {
    const primary = deps.box.primaryKekId;
    if (primary === undefined)
      throw new BillingError(
        'SIGNING_KEY_STORE',
        'SIGNING_KEY_ENCRYPTION_KEY is not set: there is no key to re-encrypt under',
      );
    const result: RotateKekResult = { primaryKekId: primary, rewrapped: 0, unreadable: [] };
    let after: string | null = null;
    for (;;) {
      const batch = await deps.signingKeys.listNotUnder(primary, after, BATCH);
      for (const stored of batch) {
        const context = sealContext(stored.merchant_id, stored.public_key);
        let plaintext: string;
        try {
          plaintext = deps.box.open(stored, context);
        } catch (err) {
          if (!(err instanceof BillingError)) throw err;
          result.unreadable.push(stored.merchant_id);
          continue;
        }
        // A PUT between our read and this write wins: its ciphertext is already under the primary.
        if (await deps.signingKeys.rewrap(stored.merchant_id, stored, deps.box.seal(plaintext, context)))
          result.rewrapped++;
      }
      if (batch.length < BATCH) return result;
      after = batch[batch.length - 1].merchant_id;
    }
  };
}
