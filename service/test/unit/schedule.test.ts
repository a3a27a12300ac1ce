// The next-billing-date rule (spec section 3) with literal instants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextBillingDate } from '../../src/billing/schedule.ts';

const at = (iso: string) => new Date(iso);

describe('nextBillingDate', () => {
  it('rule 1: counts from the confirmation the server saw, not from the previous due date', () => {
    // Due on the 1st, confirmed on the 3rd at 10:00: the next cycle is 30 days after the 3rd.
    expect(nextBillingDate(at('2030-01-03T10:00:00Z'), 30 * 86_400)).toEqual(at('2030-02-02T10:00:00Z'));
  });

  it('rule 2: a fixed number of seconds, not a calendar month', () => {
    expect(nextBillingDate(at('2030-01-31T00:00:00Z'), 2_592_000)).toEqual(at('2030-03-02T00:00:00Z'));
    expect(nextBillingDate(at('2032-02-28T12:00:00Z'), 86_400)).toEqual(at('2032-02-29T12:00:00Z'));
    // Daylight-saving changes do not exist in UTC milliseconds.
    expect(nextBillingDate(at('2030-03-30T23:30:00Z'), 3600)).toEqual(at('2030-03-31T00:30:00Z'));
  });

  it('rule 3: a late pull shifts every later cycle by the same delay (no catching up)', () => {
    const interval = 7 * 86_400;
    const late = nextBillingDate(at('2030-01-10T09:00:00Z'), interval); // due on the 8th, paid 2 days late
    expect(late).toEqual(at('2030-01-17T09:00:00Z'));
    expect(nextBillingDate(late, interval)).toEqual(at('2030-01-24T09:00:00Z'));
  });

  it('keeps milliseconds and handles long intervals', () => {
    expect(nextBillingDate(at('2030-01-01T00:00:00.123Z'), 1)).toEqual(at('2030-01-01T00:00:01.123Z'));
    expect(nextBillingDate(at('2030-01-01T00:00:00Z'), 10 * 365 * 86_400)).toEqual(at('2039-12-30T00:00:00Z')); // 3650 days: 2032 and 2036 are leap years
  });

  it('refuses what cannot be a schedule', () => {
    expect(() => nextBillingDate(at('2030-01-01T00:00:00Z'), 0)).toThrow(RangeError);
    expect(() => nextBillingDate(at('2030-01-01T00:00:00Z'), 1.5)).toThrow(RangeError);
    expect(() => nextBillingDate(new Date(Number.NaN), 60)).toThrow(RangeError);
    expect(() => nextBillingDate(at('2030-01-01T00:00:00Z'), Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
  });

  it('property: the result is exactly interval seconds after the confirmation', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.integer({ min: 1, max: 3_153_600_000 }),
        (ms, seconds) => {
          expect(nextBillingDate(new Date(ms), seconds).getTime() - ms).toBe(seconds * 1000);
        },
      ),
    );
  });
});
