// Merchants table. Plain factory over a Queryable (the pool or one transaction's connection).
// Reads by id are named statements: node-postgres prepares them once per connection.
import type { Merchant } from '../../billing/model.ts';
import type { MerchantsRepo, NewMerchant } from '../../billing/merchants/merchants-port.ts';
import type { PageRequest } from '../../billing/paging.ts';
import type { Queryable } from '../db.ts';
import { keysetPage } from './keyset.ts';

const COLUMNS = 'id, name, wallet_address, created_at, deleted_at';

export function createMerchantsRepo(db: Queryable): MerchantsRepo {
  return {
    async insert(input: NewMerchant) {
      const res = await db.query<Merchant>(
        `INSERT INTO merchants (name, wallet_address) VALUES ($1, $2) RETURNING ${COLUMNS}`,
        [input.name, input.wallet_address],
      );
      return res.rows[0];
    },

    async findById(id: string) {
      const res = await db.query<Merchant>(
        `SELECT ${COLUMNS} FROM merchants WHERE id = $1`,
        [id],
        'merchants_find_by_id',
      );
      return res.rows[0] ?? null;
    },

    async softDelete(id: string) {
      // `deleted_at IS NULL` makes a second delete a no-op that returns nothing (-> 404).
      const res = await db.query<Merchant>(
        `UPDATE merchants SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
        [id],
      );
      return res.rows[0] ?? null;
    },

    // Served by merchants_live_created_idx (partial on deleted_at IS NULL).
    list: (page: PageRequest) =>
      keysetPage<Merchant & { sort_at: string }>(
        db,
        {
          from: `${COLUMNS} FROM merchants`,
          where: ['deleted_at IS NULL'],
          params: [],
          sort: 'created_at',
          name: 'merchants_list',
        },
        page,
      ),
  };
}
