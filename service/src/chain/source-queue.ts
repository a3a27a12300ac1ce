// One queue per source account in this process. The network keeps at most one transaction per
// source account in its queue (a second one answers TRY_AGAIN_LATER) and every transaction of an
// account must carry the next sequence number, so pulls signed by one merchant run one at a time.
// Across replicas the same rule is enforced by the network itself and handled by retries
// (TRY_AGAIN_LATER → resend, txBAD_SEQ → rebuild); see soroban-gateway.ts.
export class SourceQueues {
  #tails = new Map<string, Promise<unknown>>();

  run<T>(source: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(source) ?? Promise.resolve();
    const result = previous.then(fn, fn);
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
