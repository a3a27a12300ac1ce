// Parses merchant_secret into a signing key that cannot leak: the secret lives only inside a
// private field, so logging, JSON-serialising or inspecting the object never shows it.
import {
  authorizeEntry,
  Keypair,
  StrKey,
  type FeeBumpTransaction,
  type Transaction,
  type xdr,
} from '@stellar/stellar-sdk';
import type { MerchantKey } from '../billing/pulls/vault-gateway.ts';

export class SigningKey implements MerchantKey {
  readonly publicKey: string;
  #keypair: Keypair;

  constructor(keypair: Keypair) {
    this.#keypair = keypair;
    this.publicKey = keypair.publicKey();
  }

  sign(tx: Transaction | FeeBumpTransaction): void {
    tx.sign(this.#keypair);
  }

  /** Signs and hands the transaction back, for use in an expression. */
  signed<T extends Transaction | FeeBumpTransaction>(tx: T): T {
    tx.sign(this.#keypair);
    return tx;
  }

  /**
   * Signs an address-credential auth entry for this account, valid through ledger `validUntil`
   * (SDK 17 `authorizeEntry` picks the preimage the credential arm needs: 9 for ADDRESS, 10 with
   * the address for ADDRESS_V2; js-stellar-sdk src/base/auth.ts).
   */
  authorize(entry: xdr.SorobanAuthorizationEntry, validUntil: number, passphrase: string) {
    return authorizeEntry(entry, this.#keypair, validUntil, passphrase);
  }

  toJSON(): { publicKey: string } {
    return { publicKey: this.publicKey };
  }
}

export function parseSecret(secret: string): SigningKey | null {
  if (!StrKey.isValidEd25519SecretSeed(secret)) return null;
  return new SigningKey(Keypair.fromSecret(secret));
}

export function asSigningKey(key: MerchantKey): SigningKey {
  if (!(key instanceof SigningKey)) throw new TypeError('merchant key was not parsed by the chain gateway');
  return key;
}
