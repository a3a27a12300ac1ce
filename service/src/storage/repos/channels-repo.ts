// Channel accounts and their leases (migration 0009). The lease is one UPDATE of one row picked
// with FOR UPDATE SKIP LOCKED: two concurrent callers never take the same row, and the outer WHERE
// repeats the condition so a row leased between the sub-select and the update is not taken twice.
// PGlite runs the same SQL (one connection: the statements are serialised anyway). Any free
// channel will do; those whose sequence number is known come first (no read of the account).
import type { ChannelCounts, ChannelsRepo, LeasedChannel } from '../../billing/pulls/channels-port.ts';
import type { Queryable } from '../db.ts';

const FREE = '(leased_by IS NULL OR lease_max_time < $3)';

export function createChannelsRepo(db: Queryable): ChannelsRepo {
  return {
    async insert(channels) {
      let n = 0;
      for (const c of channels) {
        const { rowCount } = await db.query(
          `INSERT INTO channels (public_key, kek_id, ciphertext, last_sequence) VALUES ($1, $2, $3, $4)
           ON CONFLICT (public_key) DO NOTHING`,
          [c.publicKey, c.sealed.kekId, c.sealed.ciphertext, c.sequence === undefined ? null : c.sequence.toString()],
        );
        n += rowCount ?? 0;
      }
      return n;
    },

    async lease({ holder, leaseMaxTime, lapsedBefore }) {
      const { rows } = await db.query<{
        id: string;
        public_key: string;
        kek_id: string;
        ciphertext: string;
        last_sequence: string | null;
      }>(
        `UPDATE channels
            SET leased_by = $1, lease_max_time = $2, tx_hash = NULL, leased_at = now()
          WHERE id = (SELECT id FROM channels WHERE ${FREE}
                       ORDER BY last_sequence IS NULL, leased_at DESC NULLS LAST, id LIMIT 1 FOR UPDATE SKIP LOCKED)
            AND ${FREE}
          RETURNING id, public_key, kek_id, ciphertext, last_sequence`,
        [holder, leaseMaxTime, lapsedBefore],
      );
      const r = rows[0];
      if (!r) return undefined;
      const leased: LeasedChannel = {
        id: r.id,
        publicKey: r.public_key,
        sealed: { kekId: r.kek_id, ciphertext: r.ciphertext },
        lastSequence: r.last_sequence === null ? null : BigInt(r.last_sequence),
        holder,
      };
      return leased;
    },

    async attach(id, holder, txHash) {
      await db.query('UPDATE channels SET tx_hash = $3 WHERE id = $1 AND leased_by = $2', [id, holder, txHash]);
    },

    async release(id, holder, sequence, forgetSequence) {
      await db.query(
        `UPDATE channels SET leased_by = NULL, lease_max_time = NULL, tx_hash = NULL,
                last_sequence = CASE WHEN $4::boolean THEN NULL ELSE GREATEST(last_sequence, $3::bigint) END
          WHERE id = $1 AND leased_by = $2`,
        [id, holder, sequence === undefined ? null : sequence.toString(), forgetSequence === true],
      );
    },

    async releaseByTx(txHash, sequence) {
      const { rowCount } = await db.query(
        `UPDATE channels SET leased_by = NULL, lease_max_time = NULL, tx_hash = NULL,
                last_sequence = GREATEST(last_sequence, $2::bigint)
          WHERE tx_hash = $1`,
        [txHash, sequence === undefined ? null : sequence.toString()],
      );
      return (rowCount ?? 0) > 0;
    },

    async anyPublicKey() {
      const { rows } = await db.query<{ public_key: string }>('SELECT public_key FROM channels ORDER BY id LIMIT 1');
      return rows[0]?.public_key;
    },

    async counts(lapsedBefore) {
      const { rows } = await db.query<{ total: string; leased: string }>(
        `SELECT count(*) AS total,
                count(*) FILTER (WHERE leased_by IS NOT NULL AND ($1::bigint IS NULL OR lease_max_time >= $1::bigint)) AS leased
           FROM channels`,
        [lapsedBefore ?? null],
      );
      const counts: ChannelCounts = { total: Number(rows[0].total), leased: Number(rows[0].leased) };
      return counts;
    },
  };
}
