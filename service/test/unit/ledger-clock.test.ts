// The ledger clock: the period learned from close times, bounds on when the next ledger closes,
// one midpoint probe per ledger while the bounds are wide, then just after the upper bound.
import { describe, expect, it } from 'vitest';
import { LedgerClock } from '../../src/chain/ledger-clock.ts';

const GRACE = 40;

/** Ledgers 10..13 closing every 5 s, each seen `seenAfterMs` after its close (wall ms from 0). */
function calibrated(seenAfterMs: number): LedgerClock {
  const clock = new LedgerClock();
  for (let i = 0; i < 4; i++) clock.observe(10 + i, 1_000 + 5 * i, 1_000_000 + 5_000 * i + seenAfterMs);
  return clock;
}

describe('LedgerClock', () => {
  it('is uncalibrated (NaN) until it has seen three ledger periods', () => {
    const clock = new LedgerClock();
    clock.observe(10, 1_000, 1_000_000);
    clock.observe(11, 1_005, 1_005_000);
    expect(clock.calibrated()).toBe(false);
    expect(clock.nextPollAt(11, GRACE)).toBeNaN();
    expect(clock.periodMs()).toBe(5_000);
  });

  it('learns the period from close times and tells the network time', () => {
    const clock = calibrated(2_500);
    expect(clock.calibrated()).toBe(true);
    expect(clock.periodMs()).toBe(5_000);
    expect(clock.latestSeq()).toBe(13);
    // 1_015 closed, first seen at wall 1_017_500: three seconds later the network says 1_018.
    expect(clock.networkNow(1_020_500)).toBe(1_018);
  });

  it('bounds 4–8 graces wide: one midpoint probe per ledger, then just after the upper bound', () => {
    // 8 ledgers of 5 s, each seen 10 ms after its close and again 10 ms before the next: the
    // period is known to 1000 / 7 ms, and ledger 18 had not closed 10 ms before its time.
    const clock = regular(8, 5);
    const first = clock.nextPollAt(17, GRACE);
    const again = clock.nextPollAt(17, GRACE);
    expect(first).toBeGreaterThan(CLOSE(18) - 10);
    expect(again - first).toBeGreaterThan(GRACE);
    expect(again).toBeGreaterThan(CLOSE(18));
    // The next ledger gets its own probe.
    clock.observe(18, 1_000 + 5 * 8, CLOSE(18) + 10);
    clock.observe(18, 1_000 + 5 * 8, CLOSE(19) - 10);
    const nextFirst = clock.nextPollAt(18, GRACE);
    expect(clock.nextPollAt(18, GRACE)).toBeGreaterThan(nextFirst);
  });

  it('a miss is a lower bound on the next close: a probe there narrows, it is not widened again', () => {
    const clock = regular(8, 5);
    clock.observe(17, 1_000 + 5 * 7, CLOSE(18) + 60); // the probe found 17 still the latest
    const after = clock.nextPollAt(17, GRACE);
    expect(after).toBeGreaterThan(CLOSE(18) + 60);
  });

  it('bounds wider than 8 graces are probed again: a ledger seen 2.5 s late says little', () => {
    const clock = calibrated(2_500);
    expect(clock.nextPollAt(13, GRACE)).toBe(clock.nextPollAt(13, GRACE));
  });

  it('once the period is well known, the bounds are narrow: a look just after the close, no probe', () => {
    const clock = regular(200, 5);
    const a = clock.nextPollAt(209, GRACE);
    expect(clock.nextPollAt(209, GRACE)).toBe(a);
    expect(a).toBeGreaterThanOrEqual(CLOSE(210));
    expect(a).toBeLessThan(CLOSE(210) + 150);
  });
});

/** Wall time (ms) at which ledger `seq` closes in regular(): ledger 10 at 1_000_000, then every 5 s. */
const CLOSE = (seq: number) => 1_000_000 + 5_000 * (seq - 10);

/** n ledgers from 10 on, `periodS` apart, each seen 10 ms after its close and 10 ms before the next. */
function regular(n: number, periodS: number): LedgerClock {
  const clock = new LedgerClock();
  for (let i = 0; i < n; i++) {
    const close = 1_000_000 + periodS * 1_000 * i;
    clock.observe(10 + i, 1_000 + periodS * i, close + 10);
    clock.observe(10 + i, 1_000 + periodS * i, close + periodS * 1_000 - 10);
  }
  return clock;
}
