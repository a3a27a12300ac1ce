// The SecretBox over AES-256-GCM, keyed by SIGNING_KEY_ENCRYPTION_KEY. Each seal draws a fresh
// 96-bit nonce (random nonces are safe far beyond the number of keys one service stores) and
// binds the caller's context as additional authenticated data. Output: base64(nonce | tag | ct),
// with the id of the key-encryption key stored beside it so that keys can be rotated: the first
// configured key seals, every configured key opens.
// Without the variable the box refuses both ways: a signing key is never stored in plain.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { BillingError } from '../billing/errors.ts';
import type { Sealed, SecretBox } from '../billing/signing-keys/signing-keys-port.ts';
import type { KeyEncryptionKey } from '../config.ts';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

const refuse = (why: string) => new BillingError('SIGNING_KEY_STORE', why);

export const NOT_CONFIGURED =
  'Signing keys cannot be stored or used: SIGNING_KEY_ENCRYPTION_KEY is not set on the server';

export function createSecretBox(keys: KeyEncryptionKey[] | undefined): SecretBox {
  if (!keys || keys.length === 0) {
    return {
      primaryKekId: undefined,
      seal: () => {
        throw refuse(NOT_CONFIGURED);
      },
      open: () => {
        throw refuse(NOT_CONFIGURED);
      },
    };
  }
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  const primary = keys[0];
  return {
    primaryKekId: primary.id,

    seal(plaintext, context): Sealed {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', primary.key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return { kekId: primary.id, ciphertext: Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64') };
    },

    open(sealed, context) {
      const key = byId.get(sealed.kekId);
      if (!key)
        throw refuse(
          `A stored signing key was sealed with key-encryption key "${sealed.kekId}", which SIGNING_KEY_ENCRYPTION_KEY does not list`,
        );
      const raw = Buffer.from(sealed.ciphertext, 'base64');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        // Wrong key under the right id, or a ciphertext altered or moved to another merchant.
        throw refuse(`A stored signing key does not open with key-encryption key "${sealed.kekId}"`);
      }
    },
  };
}
