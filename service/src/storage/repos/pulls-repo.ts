// Pull attempts and the subscription changes they cause. Outcome updates are conditional on the
// attempt still being pending, so however many requests or reconcilers observe the same
// transaction, exactly one of them flips the row and applies its effect in the same transaction.
import type { AttemptResolution, NewAttempt, PullAttempt, PullContext, PullsRepo } from '../../billing/pulls/pulls-port.ts';
import { sqlState } from '../database-errors.ts';
import type { Queryable } from '../db.ts';

const ATTEMPT_COLUMNS = `id, subscription_id, merchant_id, amount, tx_hash, source_account, max_time,
  status, ledger, error, transferred_amount, token_contract_id, fee_charged, inner_tx_hash, discrepancy,
  envelope_xdr, min_ledger, created_at, updated_at, resolved_at`;

const UNIQUE_VIOLATION = '23505';

export function createPullsRepo(db: Queryable): PullsRepo {
  const findPending = async (subscriptionId: string): Promise<PullAttempt | undefined> => {
    const { rows } = await db.query<PullAttempt>(
      `SELECT ${ATTEMPT_COLUMNS} FROM pulls WHERE subscription_id = $1 AND status = 'pending'`,
      [subscriptionId],
      'pull_find_pending',
    );
    return rows[0];
  };

  return {
    async loadContext(subscriptionId: string): Promise<PullContext | undefined> {
      const { rows } = await db.query<PullContext>(
        `SELECT s.id AS "subscriptionId", s.customer_wallet_address AS "customerWallet",
                s.status AS "subscriptionStatus", s.next_billing_date AS "nextBillingDate",
                p.id AS "planId", p.token_amount AS "tokenAmount", p.interval_seconds AS "intervalSeconds", p.token_contract_id AS "tokenContractId",
                m.id AS "merchantId", m.wallet_address AS "merchantWallet", (m.deleted_at IS NOT NULL) AS "merchantDeleted",
                EXISTS (SELECT 1 FROM pulls c WHERE c.subscription_id = s.id AND c.status = 'confirmed') AS "collectedBefore"
           FROM subscriptions s JOIN plans p ON p.id = s.plan_id JOIN merchants m ON m.id = p.merchant_id
          WHERE s.id = $1`,
        [subscriptionId],
        'pull_context',
      );
      // bigint arrives as text (db.ts); plans are capped at MAX_INTERVAL_SECONDS, a safe integer.
      // (An ::int cast here broke every pull of a plan longer than 2^31 - 1 seconds.)
      return rows[0] && { ...rows[0], intervalSeconds: Number(rows[0].intervalSeconds) };
    },

    findPending,

    /** undefined when another attempt for this subscription is already pending. */
    async insertPending(a: NewAttempt): Promise<PullAttempt | undefined> {
      try {
        const { rows } = await db.query<PullAttempt>(
          `INSERT INTO pulls (subscription_id, merchant_id, amount, tx_hash, envelope_xdr, source_account, max_time,
                              min_ledger, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9) RETURNING ${ATTEMPT_COLUMNS}`,
          [a.subscription_id, a.merchant_id, a.amount, a.tx_hash, a.envelope_xdr, a.source_account, a.max_time, a.min_ledger, a.now],
          'pull_insert_pending',
        );
        return rows[0];
      } catch (err) {
        // The one-pending-per-subscription index refused it: another attempt is in flight. Any
        // other unique violation (a repeated tx hash) is a real error and is raised.
        if (sqlState(err) === UNIQUE_VIOLATION && (await findPending(a.subscription_id))) return undefined;
        throw err;
      }
    },

    /** Moves a pending attempt to its final status; false when it was no longer pending. */
    async resolve(id: string, o: AttemptResolution): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE pulls SET status = $2, ledger = $3, error = $4, transferred_amount = $5, token_contract_id = $6,
                fee_charged = $7, inner_tx_hash = $8, discrepancy = $9, updated_at = $10, resolved_at = $10
          WHERE id = $1 AND status = 'pending'`,
        [id, o.status, o.ledger ?? null, o.error ?? null, o.transferred_amount ?? null, o.token_contract_id ?? null,
          o.fee_charged ?? null, o.inner_tx_hash ?? null, o.discrepancy ?? null, o.at],
        'pull_resolve',
      );
      return rowCount === 1;
    },

    /** A confirmed pull: the next cycle is scheduled and a past_due subscription is active again. */
    async scheduleNext(subscriptionId: string, nextBillingDate: Date, at: Date): Promise<void> {
      await db.query(
        `UPDATE subscriptions SET next_billing_date = $2, status = 'active', updated_at = $3 WHERE id = $1`,
        [subscriptionId, nextBillingDate, at],
        'pull_schedule_next',
      );
    },

    async markPastDue(subscriptionId: string, at: Date): Promise<void> {
      await db.query(`UPDATE subscriptions SET status = 'past_due', updated_at = $2 WHERE id = $1`, [subscriptionId, at], 'pull_past_due');
    },

    async listPending(limit: number): Promise<PullAttempt[]> {
      const { rows } = await db.query<PullAttempt>(
        `SELECT ${ATTEMPT_COLUMNS} FROM pulls WHERE status = 'pending' ORDER BY created_at LIMIT $1`,
        [limit],
        'pull_list_pending',
      );
      return rows;
    },

    async listForSubscription(subscriptionId: string, limit: number): Promise<PullAttempt[]> {
      const { rows } = await db.query<PullAttempt>(
        `SELECT ${ATTEMPT_COLUMNS} FROM pulls WHERE subscription_id = $1 ORDER BY created_at DESC, attempt_no DESC LIMIT $2`,
        [subscriptionId, limit],
        'pull_list_for_subscription',
      );
      return rows;
    },
  };
}
