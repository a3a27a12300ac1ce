// Subscriptions table. Plain factory over a Queryable (the pool or one transaction's connection).
// The state changes a pull makes (paid, past_due) live with the pull attempts in pulls-repo.ts,
// where they commit together with the attempt's outcome.
import type { Subscription, SubscriptionListItem } from '../../billing/model.ts';
import type { NewEvent } from '../../billing/events/events-port.ts';
import type { PageRequest } from '../../billing/paging.ts';
import type {
  NewSubscription,
  StatePatch,
  SubscriptionFilter,
  SubscriptionsRepo,
} from '../../billing/subscriptions/subscriptions-port.ts';
import type { Queryable } from '../db.ts';
import { eventCtes } from './events-repo.ts';
import { keysetPage } from './keyset.ts';

const FIELDS = [
  'id',
  'plan_id',
  'merchant_id',
  'customer_wallet_address',
  'status',
  'next_billing_date',
  'cancel_at',
  'canceled_at',
  'paused_from',
  'health_status',
  'health_checked_at',
  'health_detail',
  'created_at',
  'updated_at',
];
/** The columns of a Subscription, optionally qualified (`s.id, …`) for a query that joins. */
export const subscriptionColumns = (alias?: string) => FIELDS.map((f) => (alias ? `${alias}.${f}` : f)).join(', ');
const COLUMNS = subscriptionColumns();
const LIST_COLUMNS = 'id, plan_id, customer_wallet_address, status, next_billing_date';

export function createSubscriptionsRepo(db: Queryable): SubscriptionsRepo {
  return {
    async insert(input: NewSubscription, event?: Omit<NewEvent, 'merchant_id'>) {
      // Only for a plan still offered (its merchant not soft-deleted) and, for a merchant key, of
      // that merchant; in one round trip. The unique pair still raises PostgreSQL's own message,
      // which the spec passes through. With an event, the same statement writes it (and its
      // deliveries) from the inserted row: no row, no event; a refused row, nothing at all.
      const insert = `INSERT INTO subscriptions (id, plan_id, customer_wallet_address, next_billing_date)
         SELECT $5, p.id, $2, $3
           FROM plans p JOIN merchants m ON m.id = p.merchant_id
          WHERE p.id = $1 AND m.deleted_at IS NULL AND p.archived_at IS NULL AND ($4::uuid IS NULL OR p.merchant_id = $4::uuid)
         RETURNING ${COLUMNS}`;
      const params = [
        input.plan_id,
        input.customer_wallet_address,
        input.next_billing_date,
        input.only_merchant_id ?? null,
        input.id,
      ];
      const res = event
        ? await db.query<Subscription>(
            `WITH s AS (${insert}), ${eventCtes('SELECT s.merchant_id, $6, s.id, $7::jsonb, $8::jsonb FROM s')} SELECT * FROM s`,
            [...params, event.type, JSON.stringify(event.actor), JSON.stringify(event.data)],
            'subscriptions_insert_with_event',
          )
        : await db.query<Subscription>(insert, params, 'subscriptions_insert');
      return res.rows[0] ?? null;
    },

    async findById(id: string) {
      const res = await db.query<Subscription>(
        `SELECT ${COLUMNS} FROM subscriptions WHERE id = $1`,
        [id],
        'subscriptions_find_by_id',
      );
      return res.rows[0] ?? null;
    },

    async setState(id, from, patch: StatePatch, at) {
      // Fields not in the patch keep their value ($n IS NULL cannot tell "clear" from "keep", so
      // each optional field comes with a flag). Leaving the live statuses ends any dunning.
      const res = await db.query<Subscription>(
        `UPDATE subscriptions
            SET status = $3,
                cancel_at = CASE WHEN $4 THEN $5::timestamptz ELSE cancel_at END,
                canceled_at = CASE WHEN $6 THEN $7::timestamptz ELSE canceled_at END,
                paused_from = CASE WHEN $8 THEN $9::text ELSE paused_from END,
                next_retry_at = CASE WHEN $3 IN ('canceled', 'paused') THEN NULL ELSE next_retry_at END,
                collector_lease_until = NULL,
                updated_at = $10
          WHERE id = $1 AND status = $2
          RETURNING ${COLUMNS}`,
        [
          id,
          from,
          patch.status,
          'cancel_at' in patch,
          patch.cancel_at ?? null,
          'canceled_at' in patch,
          patch.canceled_at ?? null,
          'paused_from' in patch,
          patch.paused_from ?? null,
          at,
        ],
        'subscriptions_set_state',
      );
      return res.rows[0] ?? null;
    },

    list: (filter: SubscriptionFilter, page: PageRequest) =>
      keysetPage<SubscriptionListItem & { sort_at: string }>(db, listQuery(filter), page),
  };
}

// Filters in a fixed order, so each combination has one SQL text and one prepared-statement name.
// The scope (merchant or plan) picks the index; status is a residual filter on the index scan.
function listQuery(f: SubscriptionFilter) {
  const where: string[] = [];
  const params: unknown[] = [];
  let shape = '';
  const add = (column: string, op: string, value: unknown, letter: string) => {
    params.push(value);
    where.push(`${column} ${op} $${params.length}`);
    shape += letter;
  };
  if (f.merchant_id !== undefined) {
    add('merchant_id', '=', f.merchant_id, 'm');
    // Rows only while the merchant is live: a page with rows then proves the merchant exists, and
    // the verb looks the merchant up only for an empty page (one round trip in the common case).
    where.push('EXISTS (SELECT 1 FROM merchants WHERE id = $1 AND deleted_at IS NULL)');
  }
  if (f.plan_id !== undefined) add('plan_id', '=', f.plan_id, 'p');
  if (f.status !== undefined) add('status', '=', f.status, 's');
  if (f.due_before !== undefined) add('next_billing_date', '<=', f.due_before, 'd');
  const sort = f.due_before !== undefined ? 'next_billing_date' : 'created_at';
  return { from: `${LIST_COLUMNS} FROM subscriptions`, where, params, sort, name: `subscriptions_list5_${shape}` };
}
