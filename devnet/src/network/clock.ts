// Closes ledgers on a timer. ledgerMs 0 means ledgers close only on demand.
import type { Network } from './network.ts';

export class LedgerClock {
  private timer: NodeJS.Timeout | undefined;
  private readonly net: Network;
  paused = false;

  constructor(net: Network) {
    this.net = net;
  }

  start(): void {
    this.stop();
    if (this.net.ledgerMs > 0 && !this.paused) {
      this.timer = setInterval(() => {
        try {
          this.net.closeLedger();
        } catch (e) {
          process.stderr.write(`devnet: ledger close failed: ${e instanceof Error ? e.stack : String(e)}\n`);
        }
      }, this.net.ledgerMs);
      // Tests and the CLI decide when to exit; a pending ledger close should not keep Node alive.
      this.timer.unref();
    }
  }

  pause(): void {
    this.paused = true;
    this.stop();
  }

  resume(): void {
    this.paused = false;
    this.start();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
