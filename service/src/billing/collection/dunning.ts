// Dunning: what a failed try of the collector does to a subscription (product.md). A cycle gets at
// most 1 + retry_schedule_seconds.length tries; retry k comes retry_schedule_seconds[k-1] seconds
// after failed try k; when the last fails, the plan's final_status applies at once. The
// subscription is past_due while retrying and next_billing_date never moves until a pull lands.
//
// Which failures are tries is decided by their cause:
//   try      the subscriber can fix it by the next retry (allowance, balance, an on-chain failure)
//   end      waiting cannot fix it (no vault, a vault that does not match the plan): the end state now
//   leave    the subscriber left (revoked allowance, cancelled vault; PullRejection.subscriberLeft
//            and Problem.subscriberLeft say so, whatever the code): always canceled
//   hold     nobody's failure or the merchant's (RPC down, fee above the cap, merchant trustline):
//            not a try; the collector looks again later
import type { FinalStatus } from '../subscriptions/status-machine.ts';

export type FailureKind = 'try' | 'end' | 'leave' | 'hold';

const KIND_BY_CODE: Record<string, FailureKind> = {
  failed_on_chain: 'try',
  insufficient_allowance: 'try',
  allowance_expired: 'try',
  insufficient_balance: 'try',
  too_early: 'try',
  vault_missing: 'end',
  vault_terms_mismatch: 'end',
};

/** Unknown and merchant-side codes hold: the collector never ends a subscription on a cause it cannot name. */
export const failureKind = (code: string): FailureKind => KIND_BY_CODE[code] ?? 'hold';

export type DunningStep =
  | { kind: 'retry'; tries: number; nextRetryAt: Date }
  | { kind: 'final'; tries: number; status: FinalStatus };

export interface DunningPlan {
  retryScheduleSeconds: number[];
  finalStatus: FinalStatus;
}

/** The step after a failure of `kind` ('try', 'end' or 'leave'), `triesBefore` failed tries into the cycle. */
export function dunningStep(
  plan: DunningPlan,
  triesBefore: number,
  kind: Exclude<FailureKind, 'hold'>,
  at: Date,
): DunningStep {
  const tries = triesBefore + 1;
  if (kind === 'leave') return { kind: 'final', tries, status: 'canceled' };
  if (kind === 'end') return { kind: 'final', tries, status: plan.finalStatus };
  const delay = plan.retryScheduleSeconds[tries - 1];
  if (delay === undefined) return { kind: 'final', tries, status: plan.finalStatus };
  return { kind: 'retry', tries, nextRetryAt: new Date(at.getTime() + delay * 1000) };
}
