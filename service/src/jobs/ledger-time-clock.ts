// CLOCK=ledger (never in production): the service's clock follows the network's ledger time, so a
// test or a demo on the local network lives through months of billing by moving ledger time
// (the devnet's advance-time). The offset to the wall clock is re-read from the RPC before each
// collector round; between reads the clock runs at wall speed.
import type { Clock } from '../billing/clock.ts';

export class LedgerTimeClock implements Clock {
  #offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  /** Catches up with the network (never goes back: ledger time only moves forward). */
  async refresh(networkNowSeconds: () => Promise<number>): Promise<void> {
    const offset = (await networkNowSeconds()) * 1000 - Date.now();
    if (offset > this.#offsetMs) this.#offsetMs = offset;
  }
}
