// Subscriptions table. Plain factory over a Queryable (the pool or one transaction's connection).
// The state changes a pull makes (paid, past_due) live with the pull attempts in pulls-repo.ts,
// where they commit together with the attempt's outcome.
import type { Subscription } from '../../billing/model.ts';
import type { NewSubscription, SubscriptionsRepo } from '../../billing/ports.ts';
import type { Queryable } from '../db.ts';

const COLUMNS = 'id, plan_id, customer_wallet_address, status, next_billing_date, created_at, updated_at';

export function createSubscriptionsRepo(db: Queryable): SubscriptionsRepo {
  return {
    async insert(input: NewSubscription) {
      const res = await db.query<Subscription>(
        `INSERT INTO subscriptions (plan_id, customer_wallet_address, next_billing_date)
         VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
        [input.plan_id, input.customer_wallet_address, input.next_billing_date],
      );
      return res.rows[0];
    },

    async findById(id: string) {
      const res = await db.query<Subscription>(
        `SELECT ${COLUMNS} FROM subscriptions WHERE id = $1`,
        [id],
        'subscriptions_find_by_id',
      );
      return res.rows[0] ?? null;
    },
  };
}
