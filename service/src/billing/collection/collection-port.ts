// What the collector needs from storage beyond the pull verbs: claiming due work across replicas,
// holding a subscription back, and recording its health. storage/repos/collection-repo.ts.
import type { HealthStatus, Subscription } from '../model.ts';
import type { Health } from './preflight.ts';

export interface CollectionRepo {
  /**
   * Up to `limit` subscriptions whose collect_at has come, leased to this replica until
   * `leaseUntil` (FOR UPDATE SKIP LOCKED: replicas never claim the same row at once; a crash
   * lets the lease lapse and another replica takes the row).
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<string[]>;
  /** Work on the subscription is done (or given up): it may be claimed again when due. */
  release(subscriptionId: string): Promise<void>;
  /** A failure nobody caused: not looked at again before `until`. */
  hold(subscriptionId: string, until: Date): Promise<void>;
  /** Active and past_due subscriptions due within the lead time whose health is older than `staleBefore`. */
  listForHealthCheck(dueBefore: Date, staleBefore: Date, limit: number): Promise<string[]>;
  /** The subscription after the check, and its health before (to tell a new warning from an old one). */
  recordHealth(
    subscriptionId: string,
    health: Health,
    at: Date,
  ): Promise<{ subscription: Subscription; previous: HealthStatus } | undefined>;
}
