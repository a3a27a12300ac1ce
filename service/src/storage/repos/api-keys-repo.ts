// API keys table: hashes, prefixes and dates, never a key. Authentication's look-up is a named
// statement (prepared once per connection) on the unique hash, joined to the live merchant.
import type { ActiveKey, ApiKeysRepo, NewApiKey } from '../../billing/access/api-keys-port.ts';
import type { ApiKey } from '../../billing/model.ts';
import type { Queryable } from '../db.ts';

const COLUMNS = 'id, merchant_id, prefix, label, created_at, last_used_at, revoked_at';

export function createApiKeysRepo(db: Queryable): ApiKeysRepo {
  return {
    async insert(input: NewApiKey) {
      const { rows } = await db.query<ApiKey>(
        `INSERT INTO api_keys (merchant_id, key_hash, prefix, label) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [input.merchant_id, input.key_hash, input.prefix, input.label],
      );
      return rows[0];
    },

    async findActiveByHash(keyHash: string) {
      const { rows } = await db.query<ActiveKey>(
        `SELECT k.id, k.merchant_id FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.deleted_at IS NULL`,
        [keyHash],
        'api_keys_find_active',
      );
      return rows[0] ?? null;
    },

    // Served by api_keys_merchant_live_idx (partial on revoked_at IS NULL).
    async listActive(merchantId: string) {
      const { rows } = await db.query<ApiKey>(
        `SELECT ${COLUMNS} FROM api_keys WHERE merchant_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
        [merchantId],
      );
      return rows;
    },

    async revoke(merchantId: string, keyId: string) {
      // The merchant in the WHERE makes another merchant's key id read as absent.
      const { rows } = await db.query<ApiKey>(
        `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND merchant_id = $2 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
        [keyId, merchantId],
      );
      return rows[0] ?? null;
    },

    async recordUse(uses: { id: string; at: Date }[]) {
      if (uses.length === 0) return;
      // One statement for the whole batch; GREATEST keeps the latest time when replicas overlap.
      await db.query(
        `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.at)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at)
          WHERE k.id = u.id`,
        [uses.map((u) => u.id), uses.map((u) => u.at.toISOString())],
      );
    },
  };
}
