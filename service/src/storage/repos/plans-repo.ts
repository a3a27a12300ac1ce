// Plans table. interval_seconds is bigint in SQL, which both drivers hand back as text (db.ts
// pins that); it is a safe integer by construction (the API caps it), so it becomes a number here.
// token_amount stays text: it is exact decimal and only the HTTP edge turns it into JSON.
import type { Plan, PlanWithMerchant } from '../../billing/model.ts';
import type { PageRequest } from '../../billing/paging.ts';
import type { NewEvent } from '../../billing/events/events-port.ts';
import type { NewPlan, PlansRepo } from '../../billing/plans/plans-port.ts';
import type { Queryable } from '../db.ts';
import { eventCtes } from './events-repo.ts';
import { keysetPage } from './keyset.ts';

/** A timestamptz as JavaScript's toISOString writes it (milliseconds, UTC), in SQL. */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type PlanRow = Omit<Plan, 'interval_seconds'> & { interval_seconds: string };
type OfferedRow = PlanRow & { merchant_name: string; merchant_wallet_address: string };

const COLUMNS =
  'id, merchant_id, name, token_amount, interval_seconds, token_contract_id, retry_schedule_seconds, final_status, archived_at, created_at';

const toPlan = (r: PlanRow): Plan => ({
  id: r.id,
  merchant_id: r.merchant_id,
  name: r.name,
  token_amount: r.token_amount,
  interval_seconds: Number(r.interval_seconds),
  token_contract_id: r.token_contract_id,
  retry_schedule_seconds: r.retry_schedule_seconds.map(Number),
  final_status: r.final_status,
  archived_at: r.archived_at,
  created_at: r.created_at,
});

// The hot read behind GET /plans/{id}: one round trip for the plan and its live owner.
const FIND_OFFERED = `
  SELECT p.id, p.merchant_id, p.name, p.token_amount, p.interval_seconds, p.token_contract_id,
         p.retry_schedule_seconds, p.final_status, p.archived_at, p.created_at,
         m.name AS merchant_name, m.wallet_address AS merchant_wallet_address
    FROM plans p
    JOIN merchants m ON m.id = p.merchant_id
   WHERE p.id = $1 AND m.deleted_at IS NULL`;

/** Every table FIND_OFFERED reads: a write to any of them makes a cached answer stale. */
const OFFERED_TABLES = ['plans', 'merchants'] as const;

async function findOffered(db: Queryable, id: string): Promise<PlanWithMerchant | null> {
  const res = await db.query<OfferedRow>(FIND_OFFERED, [id], 'plans_find_offered');
  const row = res.rows[0];
  if (!row) return null;
  return {
    ...toPlan(row),
    merchant: { id: row.merchant_id, name: row.merchant_name, wallet_address: row.merchant_wallet_address },
  };
}

export function createPlansRepo(db: Queryable): PlansRepo {
  return {
    async insert(input: NewPlan, event?: Omit<NewEvent, 'merchant_id'>) {
      // The soft-delete check rides in the INSERT itself: one round trip, and the row is written
      // only if the merchant is not deleted in this statement's snapshot. An absent merchant
      // passes the NOT EXISTS and meets the foreign key. With an event, the same statement writes
      // it from the inserted row: no row, no event.
      const insert = `INSERT INTO plans (id, merchant_id, name, token_amount, interval_seconds, token_contract_id, retry_schedule_seconds, final_status)
         SELECT coalesce($8::uuid, gen_random_uuid()), $1, $2, $3, $4, $5, $6, $7
          WHERE NOT EXISTS (SELECT 1 FROM merchants WHERE id = $1 AND deleted_at IS NOT NULL)
         RETURNING ${COLUMNS}`;
      const params = [
        input.merchant_id,
        input.name,
        input.token_amount,
        input.interval_seconds,
        input.token_contract_id,
        input.retry_schedule_seconds,
        input.final_status,
        input.id ?? null,
      ];
      const res = event
        ? await db.query<PlanRow>(
            `WITH p AS (${insert}), ${eventCtes(
              `SELECT p.merchant_id, $9, p.id, $10::jsonb, jsonb_set($11::jsonb, '{object,created_at}', to_jsonb(${isoText('p.created_at')})) FROM p`,
            )} SELECT * FROM p`,
            [...params, event.type, JSON.stringify(event.actor), JSON.stringify(event.data)],
            'plans_insert_with_event',
          )
        : await db.query<PlanRow>(insert, params, 'plans_insert');
      return res.rows[0] ? toPlan(res.rows[0]) : null;
    },

    async archive(id: string, at: Date) {
      const res = await db.query<PlanRow>(
        `UPDATE plans SET archived_at = $2 WHERE id = $1 AND archived_at IS NULL RETURNING ${COLUMNS}`,
        [id, at],
        'plans_archive',
      );
      return res.rows[0] ? toPlan(res.rows[0]) : null;
    },

    async findById(id: string) {
      const res = await db.query<PlanRow>(`SELECT ${COLUMNS} FROM plans WHERE id = $1`, [id], 'plans_find_by_id');
      return res.rows[0] ? toPlan(res.rows[0]) : null;
    },

    // The embedded database answers this from memory until its next write (read-cache.ts).
    findOffered(id: string): Promise<PlanWithMerchant | null> {
      const load = () => findOffered(db, id);
      return db.readCache ? db.readCache.get(`plan-offered:${id}`, OFFERED_TABLES, load) : load();
    },

    // Served by plans_merchant_created_idx.
    async listByMerchant(merchantId: string, page: PageRequest) {
      const res = await keysetPage<PlanRow & { sort_at: string }>(
        db,
        {
          from: `${COLUMNS} FROM plans`,
          where: ['merchant_id = $1'],
          params: [merchantId],
          sort: 'created_at',
          name: 'plans_list_by_merchant',
        },
        page,
      );
      return { items: res.items.map(toPlan), next: res.next };
    },
  };
}
