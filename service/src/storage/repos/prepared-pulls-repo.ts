// Prepared pulls (migration 0009): client-side signing's attempts awaiting the merchant's signature.
import type { PreparedPull, PreparedPullsRepo } from '../../billing/pulls/prepared-pulls-port.ts';
import type { Queryable } from '../db.ts';

const COLUMNS = `id, subscription_id, merchant_id, status, auth_entry_xdr, preimage_xdr, hash,
  signature_expiration_ledger, expires_at, pull_id, created_at`;

export function createPreparedPullsRepo(db: Queryable): PreparedPullsRepo {
  return {
    async insert(p) {
      const { rows } = await db.query<PreparedPull>(
        `INSERT INTO prepared_pulls (subscription_id, merchant_id, status, auth_entry_xdr, preimage_xdr, hash,
                                     signature_expiration_ledger, expires_at, created_at, updated_at)
         VALUES ($1, $2, 'prepared', $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (subscription_id) WHERE status = 'prepared' DO NOTHING
         RETURNING ${COLUMNS}`,
        [
          p.subscription_id,
          p.merchant_id,
          p.auth_entry_xdr,
          p.preimage_xdr,
          p.hash,
          p.signature_expiration_ledger,
          p.expires_at,
          p.now,
        ],
      );
      return rows[0];
    },
    async find(id) {
      const { rows } = await db.query<PreparedPull>(`SELECT ${COLUMNS} FROM prepared_pulls WHERE id = $1`, [id]);
      return rows[0];
    },
    async findOpen(subscriptionId) {
      const { rows } = await db.query<PreparedPull>(
        `SELECT ${COLUMNS} FROM prepared_pulls WHERE subscription_id = $1 AND status = 'prepared'`,
        [subscriptionId],
      );
      return rows[0];
    },
    async close(id, status, at) {
      const { rows } = await db.query<PreparedPull>(
        `UPDATE prepared_pulls SET status = $2, updated_at = $3 WHERE id = $1 AND status = 'prepared' RETURNING ${COLUMNS}`,
        [id, status, at],
      );
      return rows[0];
    },
    async linkPull(id, pullId) {
      await db.query('UPDATE prepared_pulls SET pull_id = $2 WHERE id = $1', [id, pullId]);
    },
  };
}
