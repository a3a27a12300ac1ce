// Stored signing keys: storage holds only ciphertext (signing-keys-repo.ts), the box seals and
// opens it (src/secrets/aes-gcm-box.ts). Billing never sees a key-encryption key.
import type { StoredSigningKey } from '../model.ts';

/** A secret sealed under one key-encryption key. */
export interface Sealed {
  /** Which key-encryption key sealed it (the configured id). */
  kekId: string;
  /** base64 of nonce, tag and ciphertext. */
  ciphertext: string;
}

export interface SecretBox {
  /** The id new ciphertexts are sealed under (the first configured key); undefined when none is configured. */
  readonly primaryKekId: string | undefined;
  /** `context` is bound to the ciphertext (authenticated, not stored in it): opening under another context fails. */
  seal(plaintext: string, context: string): Sealed;
  open(sealed: Sealed, context: string): string;
}

export interface SealedSigningKey extends StoredSigningKey, Sealed {}

export interface SigningKeysRepo {
  /** Sets (or replaces) the merchant's key. */
  put(input: { merchant_id: string; public_key: string } & Sealed): Promise<StoredSigningKey>;
  find(merchantId: string): Promise<SealedSigningKey | null>;
  /** The removed key; null when the merchant had none. */
  remove(merchantId: string): Promise<StoredSigningKey | null>;
  /** Keys sealed under any key-encryption key but `kekId`, by merchant id after `after`, at most `limit`. */
  listNotUnder(kekId: string, after: string | null, limit: number): Promise<SealedSigningKey[]>;
  /** Replaces a ciphertext only if it is still the one that was read (a concurrent PUT wins). */
  rewrap(merchantId: string, from: Sealed, to: Sealed): Promise<boolean>;
}
