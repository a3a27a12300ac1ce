// The next-billing-date rule of the spec (section 3), as a pure function of its inputs:
//  1. the base is the server's clock when it saw the confirmation (passed in), not the previous
//     next_billing_date and not the ledger time;
//  2. the interval is a fixed number of seconds (no calendar months, no DST);
//  3. a late pull shifts every later cycle by the same delay: no catching up;
//  4. (who calls it) the date only moves on a confirmed pull.

/**
 * The longest interval a plan may have: 10,000 years of 365 days. Any date up to year 265,000
 * plus this stays a valid JavaScript Date and PostgreSQL timestamptz, so a pull confirmed on-chain
 * can always be scheduled (an unschedulable interval would strand a confirmed pull as pending).
 * Checked when a plan is created, so every stored plan can be pulled.
 */
export const MAX_INTERVAL_SECONDS = 315_360_000_000;

export function nextBillingDate(confirmedAt: Date, intervalSeconds: number): Date {
  if (!Number.isSafeInteger(intervalSeconds) || intervalSeconds <= 0 || intervalSeconds > MAX_INTERVAL_SECONDS) {
    throw new RangeError(`interval_seconds must be a positive integer, got ${intervalSeconds}`);
  }
  const at = confirmedAt.getTime();
  if (Number.isNaN(at)) throw new RangeError('confirmedAt is not a valid date');
  const next = new Date(at + intervalSeconds * 1000);
  // Beyond year 275760 a Date is invalid; say so instead of storing garbage.
  if (Number.isNaN(next.getTime())) throw new RangeError('next billing date is out of range');
  return next;
}
