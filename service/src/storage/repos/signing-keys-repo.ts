// Stored signing keys: only ciphertext and the id of the key-encryption key that sealed it.
import type { StoredSigningKey } from '../../billing/model.ts';
import type { Sealed, SealedSigningKey, SigningKeysRepo } from '../../billing/signing-keys/signing-keys-port.ts';
import type { Queryable } from '../db.ts';

const COLUMNS = 'merchant_id, public_key, created_at, kek_id AS "kekId", ciphertext';

export function createSigningKeysRepo(db: Queryable): SigningKeysRepo {
  return {
    async put(input) {
      // Replacing a key is a new key: created_at restarts.
      const { rows } = await db.query<StoredSigningKey>(
        `INSERT INTO signing_keys (merchant_id, public_key, kek_id, ciphertext) VALUES ($1, $2, $3, $4)
         ON CONFLICT (merchant_id) DO UPDATE
           SET public_key = EXCLUDED.public_key, kek_id = EXCLUDED.kek_id, ciphertext = EXCLUDED.ciphertext,
               created_at = now(), updated_at = now()
         RETURNING merchant_id, public_key, created_at`,
        [input.merchant_id, input.public_key, input.kekId, input.ciphertext],
      );
      return rows[0];
    },

    async find(merchantId: string) {
      const { rows } = await db.query<SealedSigningKey>(
        `SELECT ${COLUMNS} FROM signing_keys WHERE merchant_id = $1`,
        [merchantId],
        'signing_keys_find',
      );
      return rows[0] ?? null;
    },

    async remove(merchantId: string) {
      const { rows } = await db.query<StoredSigningKey>(
        'DELETE FROM signing_keys WHERE merchant_id = $1 RETURNING merchant_id, public_key, created_at',
        [merchantId],
      );
      return rows[0] ?? null;
    },

    async listNotUnder(kekId: string, after: string | null, limit: number) {
      const { rows } = await db.query<SealedSigningKey>(
        `SELECT ${COLUMNS} FROM signing_keys
          WHERE kek_id <> $1 AND ($2::uuid IS NULL OR merchant_id > $2::uuid)
          ORDER BY merchant_id LIMIT $3`,
        [kekId, after, limit],
      );
      return rows;
    },

    async rewrap(merchantId: string, from: Sealed, to: Sealed) {
      const { rowCount } = await db.query(
        `UPDATE signing_keys SET kek_id = $4, ciphertext = $5, updated_at = now()
          WHERE merchant_id = $1 AND kek_id = $2 AND ciphertext = $3`,
        [merchantId, from.kekId, from.ciphertext, to.kekId, to.ciphertext],
      );
      return rowCount === 1;
    },
  };
}
