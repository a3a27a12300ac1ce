// Confirmation in bulk (issue 14): instead of one getTransaction per pull per poll, one
// getTransactions per closed ledger (stellar-rpc methods/get_transactions.go: a ledger range in
// application order, up to 200 per page, resumed from a TOID cursor) settles every pull of this
// process included in it. With N pulls per ledger the confirmation costs about 1/N call each.
//
// A pull registers after sendTransaction answered PENDING at ledger L; it can be in ledger L+1 at
// the earliest. The watcher remembers what it saw in the last ledgers, so a pull included in a
// ledger read between its send and its registration is still found.
import type { rpc } from '@stellar/stellar-sdk';

/** How many recent ledgers' transactions are kept for pulls that register late. */
const MEMORY_LEDGERS = 20;
const PAGE = 200;

export interface Seen {
  item: rpc.Api.RawTransactionInfo;
  latestLedger: number;
  latestLedgerCloseTime: number;
  oldestLedger: number;
}

/** The last look happens this long before a waiter's deadline. */
const DEADLINE_LEAD_MS = 150;

interface Waiter {
  from: number;
  deadline: number;
  resolve: (seen: Seen | undefined) => void;
  timer: NodeJS.Timeout;
}

export interface LedgerWatcherOptions {
  fetch: (request: { startLedger?: number; cursor?: string }) => Promise<rpc.Api.RawGetTransactionsResponse>;
  /**
   * Resolves once the ledger after `latestLedger` has probably closed (the gateway's LedgerClock),
   * or after `capMs`: a look just before the first waiter's deadline beats a prediction that
   * overshoots.
   */
  untilNextLedger: (latestLedger: number, capMs: number) => Promise<void>;
  /** Between retries when a call failed. */
  retryMs: number;
  /** Told about each answer (the gateway's clock). */
  onAnswer?: (latestLedger: number, closeTime: number) => void;
  /** The latest ledger this process has seen, if any: where to start again after a failure. */
  latestSeen: () => number | undefined;
}

export class LedgerWatcher {
  #o: LedgerWatcherOptions;
  #waiters = new Map<string, Waiter[]>();
  #memory = new Map<string, Seen>();
  #cursor: string | undefined;
  #running = false;
  /** Set when the RPC does not serve getTransactions: callers poll per transaction instead. */
  unsupported = false;

  constructor(o: LedgerWatcherOptions) {
    this.#o = o;
  }

  /** The transaction's item once a ledger from `fromLedger` on includes it; undefined at `deadline`. */
  wait(hash: string, fromLedger: number, deadline: number): Promise<Seen | undefined> {
    const known = this.#memory.get(hash);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        from: fromLedger,
        deadline,
        resolve,
        timer: setTimeout(
          () => {
            const left = (this.#waiters.get(hash) ?? []).filter((w) => w !== waiter);
            if (left.length) this.#waiters.set(hash, left);
            else this.#waiters.delete(hash);
            resolve(undefined);
          },
          Math.max(0, deadline - Date.now()),
        ),
      };
      this.#waiters.set(hash, [...(this.#waiters.get(hash) ?? []), waiter]);
      if (!this.#running) void this.#run();
    });
  }

  async #run(): Promise<void> {
    this.#running = true;
    // Never resume an old cursor: an idle spell would be read back page by page.
    this.#cursor = undefined;
    try {
      // A fresh start reads from the ledger before the earliest any waiter may be in: that one
      // surely exists (a start past the latest ledger is refused), and one call covers both.
      let start = Math.max(1, (this.#earliest() ?? 2) - 1);
      // Nothing can be found before the ledger after `start` closes: the first call waits for it.
      await this.#o.untilNextLedger(start, this.#capMs());
      while (this.#waiters.size > 0) {
        let res: rpc.Api.RawGetTransactionsResponse;
        try {
          res = await this.#o.fetch(this.#cursor !== undefined ? { cursor: this.#cursor } : { startLedger: start });
        } catch (err) {
          if ((err as { rpcCode?: number }).rpcCode === -32601) {
            this.unsupported = true;
            for (const [hash, ws] of this.#waiters) {
              this.#waiters.delete(hash);
              for (const w of ws) {
                clearTimeout(w.timer);
                w.resolve(undefined);
              }
            }
            return;
          }
          // A start outside the retention window or a transient failure: start again at the latest.
          this.#cursor = undefined;
          start = this.#o.latestSeen() ?? start;
          await new Promise((r) => setTimeout(r, this.#o.retryMs));
          continue;
        }
        this.#o.onAnswer?.(res.latestLedger, Number(res.latestLedgerCloseTimestamp));
        if (this.#cursor === undefined && start > res.latestLedger) start = res.latestLedger;
        this.#cursor = res.cursor;
        const base = {
          latestLedger: res.latestLedger,
          latestLedgerCloseTime: Number(res.latestLedgerCloseTimestamp),
          oldestLedger: res.oldestLedger,
        };
        for (const item of res.transactions ?? []) {
          const seen = { item, ...base };
          this.#memory.set(item.txHash, seen);
          const ws = this.#waiters.get(item.txHash);
          if (ws) {
            this.#waiters.delete(item.txHash);
            for (const w of ws) {
              clearTimeout(w.timer);
              w.resolve(seen);
            }
          }
        }
        this.#forget(res.latestLedger - MEMORY_LEDGERS);
        if ((res.transactions?.length ?? 0) >= PAGE) continue; // more of the range
        if (this.#waiters.size > 0) await this.#o.untilNextLedger(res.latestLedger, this.#capMs());
      }
    } finally {
      this.#running = false;
      // A waiter that registered as the loop ended is served by a new loop.
      if (this.#waiters.size > 0 && !this.unsupported) void this.#run();
    }
  }

  /** Until shortly before the earliest waiter's deadline. */
  #capMs(): number {
    let min = Number.POSITIVE_INFINITY;
    for (const ws of this.#waiters.values()) for (const w of ws) min = Math.min(min, w.deadline);
    return Math.max(0, min - Date.now() - DEADLINE_LEAD_MS);
  }

  #earliest(): number | undefined {
    let min: number | undefined;
    for (const ws of this.#waiters.values()) for (const w of ws) if (min === undefined || w.from < min) min = w.from;
    return min;
  }

  #forget(beforeLedger: number): void {
    for (const [hash, seen] of this.#memory) if (seen.item.ledger < beforeLedger) this.#memory.delete(hash);
  }
}
