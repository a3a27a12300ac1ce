// The next-billing-date rule of the spec (section 3), as a pure function of its inputs:
//  1. the base is the server's clock when it saw the confirmation (passed in), not the previous
//     next_billing_date and not the ledger time;
//  2. the interval is a fixed number of seconds (no calendar months, no DST);
//  3. a late pull shifts every later cycle by the same delay: no catching up;
//  4. (who calls it) the date only moves on a confirmed pull.

export function nextBillingDate(confirmedAt: Date, intervalSeconds: number): Date {
  if (!Number.isSafeInteger(intervalSeconds) || intervalSeconds <= 0) {
    throw new RangeError(`interval_seconds must be a positive integer, got ${intervalSeconds}`);
  }
  const at = confirmedAt.getTime();
  if (Number.isNaN(at)) throw new RangeError('confirmedAt is not a valid date');
  const next = new Date(at + intervalSeconds * 1000);
  // Beyond year 275760 a Date is invalid; say so instead of storing garbage.
  if (Number.isNaN(next.getTime())) throw new RangeError('next billing date is out of range');
  return next;
}
