// Pull attempts and the subscription changes they cause. Outcome updates are conditional on the
// attempt still being pending, so however many requests or reconcilers observe the same
// transaction, exactly one of them flips the row and applies its effect in the same transaction.
import type { DunningStep } from '../../billing/collection/dunning.ts';
import type {
  AttemptResolution,
  NewAttempt,
  PullAttempt,
  PullContext,
  PullRecord,
  PullsRepo,
  PullStatus,
  SkippedTry,
  SubscriptionChange,
} from '../../billing/pulls/pulls-port.ts';
import { statusCaseSql } from '../../billing/subscriptions/status-machine.ts';
import type { Queryable } from '../db.ts';
import { subscriptionColumns } from './subscriptions-repo.ts';

const ATTEMPT_COLUMNS = `id, subscription_id, merchant_id, amount, tx_hash, source_account, max_time,
  status, ledger, error, transferred_amount, token_contract_id, fee_charged, inner_tx_hash, discrepancy,
  envelope_xdr, min_ledger, origin, code, created_at, updated_at, resolved_at`;

// Status moves come from the one table (status-machine.ts), as CASE expressions over the row.
const CONFIRMED = statusCaseSql({ kind: 'confirmed' }, 's.status');
const FAILED_502 = statusCaseSql({ kind: 'failed_502' }, 's.status');
const TRY_FAILED = statusCaseSql({ kind: 'try_failed' }, 's.status');

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
                s.status AS "subscriptionStatus", s.next_billing_date AS "nextBillingDate", s.cancel_at AS "cancelAt",
                s.dunning_tries AS "dunningTries", p.retry_schedule_seconds AS "retryScheduleSeconds", p.final_status AS "finalStatus",
                p.id AS "planId", p.token_amount AS "tokenAmount", p.interval_seconds AS "intervalSeconds", p.token_contract_id AS "tokenContractId",
                m.id AS "merchantId", m.wallet_address AS "merchantWallet", (m.deleted_at IS NOT NULL) AS "merchantDeleted",
                EXISTS (SELECT 1 FROM pulls c WHERE c.subscription_id = s.id AND c.status = 'confirmed') AS "collectedBefore",
                (SELECT max(l.max_time) FROM pulls l WHERE l.subscription_id = s.id) AS "lastMaxTime"
           FROM subscriptions s JOIN plans p ON p.id = s.plan_id JOIN merchants m ON m.id = p.merchant_id
          WHERE s.id = $1`,
        [subscriptionId],
        'pull_context',
      );
      // bigint arrives as text (db.ts); plans are capped at MAX_INTERVAL_SECONDS, a safe integer.
      // (An ::int cast here broke every pull of a plan longer than 2^31 - 1 seconds.)
      const row = rows[0];
      return (
        row && {
          ...row,
          intervalSeconds: Number(row.intervalSeconds),
          retryScheduleSeconds: row.retryScheduleSeconds.map(Number),
        }
      );
    },

    findPending,

    /** undefined when another attempt for this subscription is already pending. */
    async insertPending(a: NewAttempt): Promise<PullAttempt | undefined> {
      // ON CONFLICT names the one-pending-per-subscription index, so only that conflict is quiet
      // (and, unlike a caught error, it leaves an enclosing transaction usable for the attempt's
      // event). Any other unique violation (a repeated tx hash) is a real error and is raised.
      const { rows } = await db.query<PullAttempt>(
        `INSERT INTO pulls (subscription_id, merchant_id, amount, tx_hash, envelope_xdr, source_account, max_time,
                            min_ledger, origin, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $10)
         ON CONFLICT (subscription_id) WHERE status = 'pending' DO NOTHING
         RETURNING ${ATTEMPT_COLUMNS}`,
        [
          a.subscription_id,
          a.merchant_id,
          a.amount,
          a.tx_hash,
          a.envelope_xdr,
          a.source_account,
          a.max_time,
          a.min_ledger,
          a.origin,
          a.now,
        ],
        'pull_insert_pending',
      );
      return rows[0];
    },

    /** Moves a pending attempt to its final status; undefined when it was no longer pending. */
    async resolve(id: string, o: AttemptResolution, from: readonly PullStatus[] = ['pending']) {
      const { rows } = await db.query<PullAttempt>(
        `UPDATE pulls SET status = $2, ledger = $3, error = $4, transferred_amount = $5, token_contract_id = $6,
                fee_charged = $7, inner_tx_hash = $8, discrepancy = $9, code = $11, updated_at = $10, resolved_at = $10
          WHERE id = $1 AND status = ANY($12::text[]) RETURNING ${ATTEMPT_COLUMNS}`,
        [
          id,
          o.status,
          o.ledger ?? null,
          o.error ?? null,
          o.transferred_amount ?? null,
          o.token_contract_id ?? null,
          o.fee_charged ?? null,
          o.inner_tx_hash ?? null,
          o.discrepancy ?? null,
          o.at,
          o.code ?? null,
          from,
        ],
        'pull_resolve',
      );
      return rows[0];
    },

    /** A confirmed pull: the next cycle is scheduled and a past_due subscription is active again. */
    // A paid cycle: the next one is scheduled, any dunning ends, and a live status becomes active
    // (a pull landing after a pause or cancel moves the date but not the status).
    scheduleNext: (subscriptionId: string, nextBillingDate: Date, at: Date) =>
      changeSubscription(
        db,
        `next_billing_date = $3, status = ${CONFIRMED}, dunning_tries = 0, next_retry_at = NULL, dunning_exhausted = false, hold_until = NULL`,
        [subscriptionId, at, nextBillingDate],
        'pull_schedule_next',
      ),

    markPastDue: (subscriptionId: string, at: Date) =>
      changeSubscription(db, `status = ${FAILED_502}`, [subscriptionId, at], 'pull_past_due'),

    applyDunning(subscriptionId: string, step: DunningStep, at: Date) {
      if (step.kind === 'retry') {
        return changeSubscription(
          db,
          `status = ${TRY_FAILED}, dunning_tries = $3, next_retry_at = $4`,
          [subscriptionId, at, step.tries, step.nextRetryAt],
          'pull_dunning_retry',
        );
      }
      return changeSubscription(
        db,
        `status = ${statusCaseSql({ kind: 'exhausted', finalStatus: step.status }, 's.status')}, dunning_tries = $3, next_retry_at = NULL,
         dunning_exhausted = ($4 = 'past_due'), canceled_at = CASE WHEN $4 = 'canceled' THEN $2::timestamptz ELSE s.canceled_at END`,
        [subscriptionId, at, step.tries, step.status],
        `pull_dunning_final_${step.status}`,
      );
    },

    async listPending(limit: number): Promise<PullAttempt[]> {
      const { rows } = await db.query<PullAttempt>(
        `SELECT ${ATTEMPT_COLUMNS} FROM pulls WHERE status = 'pending' ORDER BY created_at LIMIT $1`,
        [limit],
        'pull_list_pending',
      );
      return rows;
    },

    async insertSkipped(t: SkippedTry): Promise<void> {
      await db.query(
        `INSERT INTO pulls (subscription_id, merchant_id, amount, status, origin, code, error, created_at, updated_at, resolved_at)
         VALUES ($1, $2, $3, 'skipped', 'collector', $4, $5, $6, $6, $6)`,
        [t.subscription_id, t.merchant_id, t.amount, t.code, t.error, t.now],
        'pull_insert_skipped',
      );
    },

    async listForSubscription(subscriptionId: string, limit: number): Promise<PullRecord[]> {
      const { rows } = await db.query<PullRecord>(
        `SELECT ${ATTEMPT_COLUMNS} FROM pulls WHERE subscription_id = $1 ORDER BY created_at DESC, attempt_no DESC LIMIT $2`,
        [subscriptionId, limit],
        'pull_list_for_subscription',
      );
      return rows;
    },
  };
}

const SUBSCRIPTION_COLUMNS = subscriptionColumns('s');

/**
 * Sets `set` ($1 = id, $2 = at) on one subscription and answers with the row and the status it had
 * before (the locked subquery reads it in the same statement), which tells an event a change of
 * status (past_due, reactivated) from a write that left the status as it was.
 */
async function changeSubscription(
  db: Queryable,
  set: string,
  params: unknown[],
  name: string,
): Promise<SubscriptionChange | undefined> {
  const { rows } = await db.query<
    SubscriptionChange['subscription'] & { previous_status: SubscriptionChange['previousStatus'] }
  >(
    `UPDATE subscriptions s SET ${set}, updated_at = $2
       FROM (SELECT id, status FROM subscriptions WHERE id = $1 FOR UPDATE) old
      WHERE s.id = old.id
     RETURNING ${SUBSCRIPTION_COLUMNS}, old.status AS previous_status`,
    params,
    name,
  );
  if (!rows[0]) return undefined;
  const { previous_status, ...subscription } = rows[0];
  return { subscription, previousStatus: previous_status };
}
