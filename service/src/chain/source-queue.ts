// One queue per source account in this process. The network keeps at most one transaction per
// source account in its queue (a second one answers TRY_AGAIN_LATER) and every transaction of an
// account must carry the next sequence number, so pulls signed by one merchant run one at a time.
// Across replicas the same rule is enforced by the network itself and handled by retries
// (TRY_AGAIN_LATER → resend, txBAD_SEQ → rebuild); see soroban-gateway.ts.
export interface QueueLimits {
  /** Pulls waiting behind the one running, per source account; more are refused at once. */
  maxQueued: number;
  /** Longest a pull may wait for its turn; past it, it is refused without touching the network. */
  maxWaitMs: number;
}

export class SourceQueues {
  #tails = new Map<string, Promise<unknown>>();
  #waiting = new Map<string, number>();
  #limits: QueueLimits;
  #busy: (reason: string) => Error;

  constructor(limits: QueueLimits, busy: (reason: string) => Error) {
    this.#limits = limits;
    this.#busy = busy;
  }

  run<T>(source: string, fn: () => Promise<T>): Promise<T> {
    const waiting = this.#waiting.get(source) ?? 0;
    if (waiting >= this.#limits.maxQueued) {
      return Promise.reject(this.#busy(`${waiting} pulls of this merchant are already waiting`));
    }
    this.#waiting.set(source, waiting + 1);
    const queuedAt = Date.now();
    const turn = () => {
      const left = (this.#waiting.get(source) ?? 1) - 1;
      if (left === 0) this.#waiting.delete(source);
      else this.#waiting.set(source, left);
      const waited = Date.now() - queuedAt;
      if (waited > this.#limits.maxWaitMs) {
        return Promise.reject(this.#busy(`waited ${waited} ms for this merchant's earlier pulls`));
      }
      return fn();
    };
    const previous = this.#tails.get(source) ?? Promise.resolve();
    const result = previous.then(turn, turn);
    const tail = result.catch(() => undefined);
    this.#tails.set(source, tail);
    // Drop the entry once idle so the map does not grow with every merchant ever seen.
    void tail.then(() => {
      if (this.#tails.get(source) === tail) this.#tails.delete(source);
    });
    return result;
  }
}

/**
 * Last known sequence number per source account, so a merchant the service alone signs for
 * needs no getAccount before each pull. Only a transaction seen in a ledger advances it; any
 * doubt (rejection, unknown outcome) forgets it and the next pull asks the network.
 */
export class SequenceCache {
  #seq = new Map<string, bigint>();

  get(source: string): bigint | undefined {
    return this.#seq.get(source);
  }

  included(source: string, txSequence: bigint): void {
    const known = this.#seq.get(source);
    if (known === undefined || txSequence > known) this.#seq.set(source, txSequence);
  }

  forget(source: string): void {
    this.#seq.delete(source);
  }
}
