// The collector's queries. The due page is one range scan of subscriptions_collect_idx (the
// generated collect_at, migration 0007) whatever the table's size; claimed rows carry a lease so
// a replica's work in progress is skipped by the others, and a crashed replica's lease lapses.
import type { CollectionRepo } from '../../billing/collection/collection-port.ts';
import type { Health } from '../../billing/collection/preflight.ts';
import type { HealthStatus, Subscription } from '../../billing/model.ts';
import type { Queryable } from '../db.ts';
import { subscriptionColumns } from './subscriptions-repo.ts';

export function createCollectionRepo(db: Queryable): CollectionRepo {
  return {
    async claimDue(now, leaseUntil, limit) {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE subscriptions SET collector_lease_until = $2
          WHERE id IN (SELECT id FROM subscriptions
                        WHERE collect_at <= $1 AND (collector_lease_until IS NULL OR collector_lease_until < $1)
                        ORDER BY collect_at, id
                        LIMIT $3
                        FOR UPDATE SKIP LOCKED)
          RETURNING id`,
        [now, leaseUntil, limit],
        'collection_claim_due',
      );
      return rows.map((r) => r.id);
    },

    async release(subscriptionId) {
      await db.query(
        `UPDATE subscriptions SET collector_lease_until = NULL WHERE id = $1`,
        [subscriptionId],
        'collection_release',
      );
    },

    async hold(subscriptionId, until) {
      await db.query(
        `UPDATE subscriptions SET hold_until = $2, collector_lease_until = NULL WHERE id = $1`,
        [subscriptionId, until],
        'collection_hold',
      );
    },

    // Served by subscriptions_due_active_idx (next_billing_date, id) WHERE status IN ('active', 'past_due').
    async listForHealthCheck(dueBefore, staleBefore, limit) {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM subscriptions
          WHERE status IN ('active', 'past_due') AND next_billing_date <= $1
            AND (health_checked_at IS NULL OR health_checked_at < $2)
          ORDER BY next_billing_date, id
          LIMIT $3`,
        [dueBefore, staleBefore, limit],
        'collection_health_due',
      );
      return rows.map((r) => r.id);
    },

    async recordHealth(subscriptionId, health: Health, at) {
      const { rows } = await db.query<Subscription & { previous_health: HealthStatus }>(
        `UPDATE subscriptions s SET health_status = $2, health_detail = $3, health_checked_at = $4
           FROM (SELECT id, health_status FROM subscriptions WHERE id = $1 FOR UPDATE) old
          WHERE s.id = old.id
          RETURNING ${subscriptionColumns('s')}, old.health_status AS previous_health`,
        [subscriptionId, health.status, health.detail ?? null, at],
        'collection_record_health',
      );
      if (!rows[0]) return undefined;
      const { previous_health, ...subscription } = rows[0];
      return { subscription, previous: previous_health };
    },
  };
}
