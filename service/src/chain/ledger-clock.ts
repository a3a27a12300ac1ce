// Predicts when the next ledger closes, so that a confirmation poll lands just after the close
// instead of on a fixed timer: fewer getTransaction calls, and the outcome is seen sooner.
//
// Keeps bounds [lo, hi] on the wall-clock time at which a reference ledger closed:
//  - a response that shows ledger s as the latest at wall time t says C(s) <= t and C(s+1) > t;
//  - bounds are carried to later ledgers with the period learned from close times, widened by
//    what that period may be off by and by the close-to-close jitter. Close times themselves are
//    not used as bounds: they have one-second resolution and the network's clock need not agree
//    with ours. A fresh observation that contradicts the carried bounds replaces them, so a
//    network less regular than assumed costs a wider window, never a wrong one for long.
// Polling at the midpoint while the bounds are wide narrows them quickly; afterwards a poll at
// `hi` finds the ledger already closed. A miss is kept as a lower bound on the next close (not
// carried through the reference, which re-adds the slack: bisection then never converged, and
// with one pull per 5 s ledger the confirmation took 3.2 getTransactions per pull, bench:pulls);
// bounds between 4 and 8 graces wide get one probe per ledger, not more.
/** Before the period is learned, projected bounds widen by 2% of the distance. */
const DRIFT_UNCALIBRATED = 0.02;
/** Close-to-close jitter allowed for, as a share of the period: 25 ms at 5 s. */
const JITTER = 0.005;

interface Bounds {
  seq: number;
  lo: number;
  hi: number;
}

export class LedgerClock {
  #ref: Bounds | undefined;
  #first: { seq: number; closeTime: number } | undefined;
  #last: { seq: number; closeTime: number } | undefined;
  /** Wall time (ms) at which #last was first seen. */
  #lastSeenAt = 0;
  #defaultPeriodMs: number;
  /** The ledger a midpoint probe was last scheduled for. */
  #probed: number | undefined;
  /**
   * The next ledger had not closed at wall time `at` (its predecessor was the latest then): kept
   * as is, since carrying it through the reference ledger would widen it by the slack again.
   */
  #notBefore: { seq: number; at: number } | undefined;

  constructor(defaultPeriodMs = 5000) {
    this.#defaultPeriodMs = defaultPeriodMs;
  }

  /** The latest ledger sequence seen, if any. */
  latestSeq(): number | undefined {
    return this.#last?.seq;
  }

  /** True once enough ledgers were seen to know the period. */
  calibrated(): boolean {
    const a = this.#first;
    const b = this.#last;
    return !!a && !!b && b.seq - a.seq >= 3 && b.closeTime > a.closeTime;
  }

  /** Average ledger period from close times (the default until calibrated). */
  periodMs(): number {
    const a = this.#first;
    const b = this.#last;
    if (!a || !b || !this.calibrated()) return this.#defaultPeriodMs;
    return ((b.closeTime - a.closeTime) * 1000) / (b.seq - a.seq);
  }

  #project(seq: number): { lo: number; hi: number } | undefined {
    const ref = this.#ref;
    if (!ref) return undefined;
    const d = seq - ref.seq;
    const p = this.periodMs();
    // The period comes from close times of one-second resolution n ledgers apart: it is off by
    // less than 1000 / n ms per ledger.
    const perLedger = this.calibrated()
      ? 1000 / (this.#last!.seq - this.#first!.seq) + p * JITTER
      : p * DRIFT_UNCALIBRATED;
    const slack = Math.abs(d) * perLedger;
    return { lo: ref.lo + d * p - slack, hi: ref.hi + d * p + slack };
  }

  /** Records that `seq` (closed at `closeTimeSeconds`) was the latest ledger at wall time `now`. */
  observe(seq: number, closeTimeSeconds: number, now = Date.now()): void {
    if (!this.#first) this.#first = { seq, closeTime: closeTimeSeconds };
    if (!this.#last || seq >= this.#last.seq) {
      const known = this.#notBefore?.seq === seq + 1 ? this.#notBefore.at : 0;
      this.#notBefore = { seq: seq + 1, at: Math.max(known, now) };
    }
    if (!this.#last || seq > this.#last.seq) {
      this.#last = { seq, closeTime: closeTimeSeconds };
      this.#lastSeenAt = now;
    }
    const p = this.periodMs();
    let lo = now - p;
    let hi = now;
    const carried = this.#project(seq);
    if (carried && Math.max(lo, carried.lo) <= Math.min(hi, carried.hi)) {
      lo = Math.max(lo, carried.lo);
      hi = Math.min(hi, carried.hi);
    }
    this.#ref = { seq, lo, hi };
  }

  /**
   * The network's time now (unix seconds): the latest close time seen plus the wall time since it
   * was seen. Never ahead of the network (the close happened before we saw it), so a time bound
   * built on it is never later than intended. undefined before any observation.
   */
  networkNow(now = Date.now()): number | undefined {
    return this.#last ? this.#last.closeTime + Math.floor((now - this.#lastSeenAt) / 1000) : undefined;
  }

  /**
   * When to look for the ledger after `seq`: the midpoint while the bounds are wide (while wider
   * than 8 graces; once per ledger between 4 and 8), else just after `hi`; NaN before calibration.
   */
  nextPollAt(seq: number, graceMs: number): number {
    const next = this.#project(seq + 1);
    if (!next || !this.calibrated()) return Number.NaN;
    if (this.#notBefore?.seq === seq + 1) next.lo = Math.min(next.hi, Math.max(next.lo, this.#notBefore.at));
    const width = next.hi - next.lo;
    if (width > 8 * graceMs || (width > 4 * graceMs && this.#probed !== seq + 1)) {
      this.#probed = seq + 1;
      return (next.lo + next.hi) / 2;
    }
    return next.hi + graceMs;
  }
}
