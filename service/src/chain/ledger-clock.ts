// Predicts when the next ledger closes, so that confirmation polls land just after a close
// instead of on a fixed timer: fewer getTransaction calls, and the outcome is seen sooner.
// Learned from what RPC responses tell us (latest sequence + close time) and from our own
// wall clock when a new sequence first appears (close times only have one-second resolution).
export class LedgerClock {
  #firstSeen = new Map<number, number>(); // sequence -> wall ms when first observed
  #anchor: { sequence: number; closeTime: number } | undefined;
  #latest: { sequence: number; closeTime: number } | undefined;
  #defaultPeriodMs: number;

  constructor(defaultPeriodMs = 5000) {
    this.#defaultPeriodMs = defaultPeriodMs;
  }

  observe(sequence: number, closeTimeSeconds: number, now = Date.now()): void {
    if (!this.#firstSeen.has(sequence)) {
      this.#firstSeen.set(sequence, now);
      if (this.#firstSeen.size > 64) this.#firstSeen.delete(this.#firstSeen.keys().next().value as number);
    }
    if (!this.#anchor) this.#anchor = { sequence, closeTime: closeTimeSeconds };
    if (!this.#latest || sequence > this.#latest.sequence) this.#latest = { sequence, closeTime: closeTimeSeconds };
  }

  /** Average ledger period over what we have seen; needs a few ledgers to be meaningful. */
  periodMs(): number {
    const a = this.#anchor;
    const b = this.#latest;
    if (!a || !b || b.sequence - a.sequence < 3 || b.closeTime <= a.closeTime) return this.#defaultPeriodMs;
    return ((b.closeTime - a.closeTime) * 1000) / (b.sequence - a.sequence);
  }

  /** Best estimate (wall ms) of when the ledger after `sequence` closes. */
  nextCloseAfter(sequence: number, closeTimeSeconds: number): number {
    const seen = this.#firstSeen.get(sequence);
    // The ledger closed no later than we first saw it, and within its close-time second.
    const closedAt = Math.min(seen ?? Infinity, closeTimeSeconds * 1000 + 999);
    return closedAt + this.periodMs();
  }
}
