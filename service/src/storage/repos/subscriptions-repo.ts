// Subscriptions table. markPaid / markPastDue are the two state changes of the spec's section 3;
// they take the repo's Queryable, so a pull can make them in the same transaction as its own rows.
import type { Merchant, Subscription, SubscriptionForPull } from '../../billing/model.ts';
import type { NewSubscription, SubscriptionsRepo } from '../../billing/ports.ts';
import type { Queryable } from '../db.ts';

const COLUMNS = 'id, plan_id, customer_wallet_address, status, next_billing_date, created_at, updated_at';

type ForPullRow = Subscription & {
  plan_token_amount: string;
  plan_interval_seconds: string;
  merchant_id: string;
  merchant_name: string;
  merchant_wallet_address: string;
  merchant_created_at: Date;
  merchant_deleted_at: Date | null;
};

// The merchant is returned even when soft-deleted: the pull verb answers 404 for it, with its own message.
const FIND_FOR_PULL = `
  SELECT s.id, s.plan_id, s.customer_wallet_address, s.status, s.next_billing_date, s.created_at, s.updated_at,
         p.token_amount AS plan_token_amount, p.interval_seconds AS plan_interval_seconds,
         m.id AS merchant_id, m.name AS merchant_name, m.wallet_address AS merchant_wallet_address,
         m.created_at AS merchant_created_at, m.deleted_at AS merchant_deleted_at
    FROM subscriptions s
    JOIN plans p ON p.id = s.plan_id
    JOIN merchants m ON m.id = p.merchant_id
   WHERE s.id = $1`;

function toForPull(r: ForPullRow): SubscriptionForPull {
  const merchant: Merchant = {
    id: r.merchant_id,
    name: r.merchant_name,
    wallet_address: r.merchant_wallet_address,
    created_at: r.merchant_created_at,
    deleted_at: r.merchant_deleted_at,
  };
  return {
    id: r.id,
    plan_id: r.plan_id,
    customer_wallet_address: r.customer_wallet_address,
    status: r.status,
    next_billing_date: r.next_billing_date,
    created_at: r.created_at,
    updated_at: r.updated_at,
    plan: { id: r.plan_id, token_amount: r.plan_token_amount, interval_seconds: Number(r.plan_interval_seconds) },
    merchant,
  };
}

export function createSubscriptionsRepo(db: Queryable): SubscriptionsRepo {
  const one = async (text: string, params: unknown[], name?: string) =>
    (await db.query<Subscription>(text, params, name)).rows[0] ?? null;

  return {
    async insert(input: NewSubscription) {
      const row = await one(
        `INSERT INTO subscriptions (plan_id, customer_wallet_address, next_billing_date)
         VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
        [input.plan_id, input.customer_wallet_address, input.next_billing_date],
      );
      return row as Subscription;
    },

    findById: (id) => one(`SELECT ${COLUMNS} FROM subscriptions WHERE id = $1`, [id], 'subscriptions_find_by_id'),

    async findForPull(id) {
      const res = await db.query<ForPullRow>(FIND_FOR_PULL, [id], 'subscriptions_find_for_pull');
      return res.rows[0] ? toForPull(res.rows[0]) : null;
    },

    markPaid: (id, nextBillingDate) =>
      one(
        `UPDATE subscriptions SET status = 'active', next_billing_date = $2, updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, nextBillingDate],
      ),

    markPastDue: (id) =>
      one(`UPDATE subscriptions SET status = 'past_due', updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [id]),
  };
}
