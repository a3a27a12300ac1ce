// When a failed delivery is tried again: the first retry after `baseMs` (5 s by default, so within
// 10 s even at the top of the jitter), then doubling up to `maxDelayMs` (6 h), for as long as the
// delivery's retry window (`retryForMs`, 3 days by default) lasts. Jitter spreads each delay over
// ±25 % so that a receiver coming back is not hit by every queued delivery in the same second.
// Pure: the caller passes the instants and the random draw.

export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  retryForMs: number;
}

/** Delay after failed attempt number `attempt` (1 = the first try), before jitter. */
export function backoffMs(policy: Pick<RetryPolicy, 'baseMs' | 'maxDelayMs'>, attempt: number): number {
  return Math.min(policy.baseMs * 2 ** Math.min(attempt - 1, 40), policy.maxDelayMs);
}

/** The next attempt's time, or null when the retry window is over (the delivery has failed). */
export function nextRetryAt(
  policy: RetryPolicy,
  attempt: number,
  openedAt: Date,
  now: Date,
  random: number,
): Date | null {
  const delay = backoffMs(policy, attempt) * (0.75 + 0.5 * random);
  const at = now.getTime() + delay;
  return at - openedAt.getTime() > policy.retryForMs ? null : new Date(at);
}
