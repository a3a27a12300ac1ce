// GET /merchants/{id}/pulls and its daily totals. Both scan the pulls_by_merchant index
// (migration 0011): (merchant_id, created_at, id) is the keyset's own order, and the totals read
// the same range, so neither touches another merchant's rows.
import type { PageRequest } from '../../billing/paging.ts';
import type { DailyTotal, MerchantPullsFilter, MerchantPullsRepo } from '../../billing/pulls/merchant-pulls-port.ts';
import type { PullRecord } from '../../billing/pulls/pulls-port.ts';
import type { Queryable } from '../db.ts';
import { keysetPage } from './keyset.ts';

const RECORD_COLUMNS = `id, subscription_id, merchant_id, amount, tx_hash, status, ledger, error, transferred_amount,
  token_contract_id, fee_charged, inner_tx_hash, discrepancy, origin, code, created_at, updated_at, resolved_at`;

export function createMerchantPullsRepo(db: Queryable): MerchantPullsRepo {
  return {
    list: (filter: MerchantPullsFilter, page: PageRequest) =>
      keysetPage<PullRecord & { sort_at: string }>(db, listQuery(filter), page),

    async dailyTotals(merchantId: string, from: Date, to: Date): Promise<DailyTotal[]> {
      // Days are UTC calendar days of the attempt; amounts stay numeric (exact) and leave as text.
      const { rows } = await db.query<{ day: string; token_contract_id: string | null; amount: string; pulls: number }>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, token_contract_id,
                SUM(COALESCE(transferred_amount, amount))::text AS amount, COUNT(*)::int AS pulls
           FROM pulls
          WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3 AND status = 'confirmed'
          GROUP BY 1, 2
          ORDER BY 1, 2`,
        [merchantId, from, to],
        'merchant_pulls_daily_totals',
      );
      return rows;
    },
  };
}

// Filters in a fixed order, so each combination has one SQL text and one prepared-statement name.
function listQuery(f: MerchantPullsFilter) {
  const where: string[] = [];
  const params: unknown[] = [];
  let shape = '';
  const add = (condition: (n: number) => string, value: unknown, letter: string) => {
    params.push(value);
    where.push(condition(params.length));
    shape += letter;
  };
  add((n) => `merchant_id = $${n}`, f.merchant_id, 'm');
  if (f.from !== undefined) add((n) => `created_at >= $${n}`, f.from, 'f');
  if (f.to !== undefined) add((n) => `created_at < $${n}`, f.to, 't');
  if (f.status !== undefined) add((n) => `status = $${n}`, f.status, 's');
  return {
    from: `${RECORD_COLUMNS} FROM pulls`,
    where,
    params,
    sort: 'created_at',
    name: `merchant_pulls_list_${shape}`,
  };
}
