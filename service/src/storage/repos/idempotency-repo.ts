// Idempotency-Key rows. claim is one statement: the INSERT wins for a new key, and the conflict
// branch takes over a row only when it has expired or was abandoned mid-request, so two requests
// racing on one key cannot both own it (the primary key decides).
import type { IdempotencyRepo, StoredRequest } from '../../billing/idempotency/idempotency-port.ts';
import type { Queryable } from '../db.ts';

const ms = (n: number) => `make_interval(secs => ${n}::double precision / 1000)`;

export function createIdempotencyRepo(db: Queryable): IdempotencyRepo {
  return {
    async claim(scope, key, requestHmac, expireMs, abandonMs) {
      const { rowCount } = await db.query(
        `INSERT INTO idempotency_keys AS k (scope, key, request_hmac) VALUES ($1, $2, $3)
         ON CONFLICT (scope, key) DO UPDATE SET request_hmac = EXCLUDED.request_hmac, status = NULL, body = NULL, created_at = now()
          WHERE k.created_at < now() - ${ms(expireMs)}
             OR (k.status IS NULL AND k.created_at < now() - ${ms(abandonMs)})`,
        [scope, key, requestHmac],
        'idempotency_claim',
      );
      return rowCount === 1;
    },

    async find(scope, key) {
      const { rows } = await db.query<StoredRequest>(
        `SELECT request_hmac, status, body, created_at FROM idempotency_keys WHERE scope = $1 AND key = $2`,
        [scope, key],
        'idempotency_find',
      );
      return rows[0] ?? null;
    },

    async complete(scope, key, status, body) {
      await db.query(
        `UPDATE idempotency_keys SET status = $3, body = $4 WHERE scope = $1 AND key = $2`,
        [scope, key, status, body],
        'idempotency_complete',
      );
    },

    async release(scope, key) {
      await db.query(
        `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL`,
        [scope, key],
        'idempotency_release',
      );
    },

    async purge(expireMs) {
      const { rowCount } = await db.query(
        `DELETE FROM idempotency_keys WHERE created_at < now() - ${ms(expireMs)}`,
        [],
        'idempotency_purge',
      );
      return rowCount;
    },

    async salt() {
      const { rows } = await db.query<{ salt: string }>(`SELECT salt FROM idempotency_salt`, [], 'idempotency_salt');
      return rows[0].salt;
    },
  };
}
