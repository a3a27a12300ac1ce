// The subscription statuses and every move between them, in one table. Verbs ask `next()` and
// never set a status by hand, so a move that is not in the table cannot happen anywhere.
//
//   from \ event      confirmed  failed_502  try_failed  exhausted(final)  pause   resume      cancel
//   active            active     past_due    past_due    final_status      paused  —           canceled
//   past_due          active     past_due    past_due    final_status      paused  —           canceled
//   unpaid            active     unpaid      —           —                 paused  —           canceled
//   paused            —          —           —           —                 —       (held one)  canceled
//   canceled          —          —           —           —                 —       —           —
//
// `confirmed` is a confirmed pull (manual or collector) — a paid invoice reactivates; `failed_502`
// is the spec's on-chain failure of a manual /trigger-pull; `try_failed` and `exhausted` come only
// from the collector's dunning (`exhausted` also straight from active when waiting cannot help); a paused subscription is never pulled, so nothing but resume and
// cancel reaches it; resume restores the status held when paused.
export const STATUSES = ['active', 'past_due', 'unpaid', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof STATUSES)[number];

export const FINAL_STATUSES = ['canceled', 'unpaid', 'past_due'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

export type StatusEvent =
  | { kind: 'confirmed' }
  | { kind: 'failed_502' }
  | { kind: 'try_failed' }
  | { kind: 'exhausted'; finalStatus: FinalStatus }
  | { kind: 'pause' }
  | { kind: 'resume'; held: Exclude<SubscriptionStatus, 'paused' | 'canceled'> }
  | { kind: 'cancel' };

type Live = Exclude<SubscriptionStatus, 'paused' | 'canceled'>;
const LIVE: readonly SubscriptionStatus[] = ['active', 'past_due', 'unpaid'];
const isLive = (s: SubscriptionStatus): s is Live => LIVE.includes(s);

/** The status after `event`, or undefined when the table has no such move. */
export function next(from: SubscriptionStatus, event: StatusEvent): SubscriptionStatus | undefined {
  switch (event.kind) {
    case 'confirmed':
      return isLive(from) ? 'active' : undefined;
    case 'failed_502':
      return from === 'unpaid' ? 'unpaid' : isLive(from) ? 'past_due' : undefined;
    case 'try_failed':
      return from === 'active' || from === 'past_due' ? 'past_due' : undefined;
    case 'exhausted':
      return from === 'active' || from === 'past_due' ? event.finalStatus : undefined;
    case 'pause':
      return isLive(from) ? 'paused' : undefined;
    case 'resume':
      return from === 'paused' ? event.held : undefined;
    case 'cancel':
      return from === 'canceled' ? undefined : 'canceled';
  }
}

/**
 * The table's column for `event` as a SQL CASE over the row's current status, so that storage
 * applies a move inside the UPDATE that records its cause (no read-then-write race) while the
 * table above stays the only place that knows the moves. A move not in the table keeps the status.
 */
export function statusCaseSql(event: StatusEvent, column = 'status'): string {
  const arms = STATUSES.map((from) => [from, next(from, event)] as const)
    .filter(([from, to]) => to !== undefined && to !== from)
    .map(([from, to]) => `WHEN '${from}' THEN '${to}'`);
  return arms.length ? `CASE ${column} ${arms.join(' ')} ELSE ${column} END` : column;
}
