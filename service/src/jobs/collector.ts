// The collector: in every replica (unless COLLECTOR_ENABLED=false), every COLLECTOR_INTERVAL_MS,
// claims due subscriptions through PostgreSQL and collects them, at most COLLECTOR_CONCURRENCY at a
// time in this process (one merchant's pulls queue on its sequence number in the chain gateway),
// then refreshes the health of subscriptions coming due. One round at a time; a failed round is
// logged and the next one comes.
import type { Logger } from 'pino';

export interface CollectorRound {
  /** Claims up to `limit` due subscription ids (leased to this replica). */
  claim(limit: number): Promise<string[]>;
  collect(subscriptionId: string): Promise<string>;
  checkHealth(): Promise<number>;
  /** Before each round: e.g. the ledger test clock catching up with the network. */
  beforeRound?(): Promise<void>;
}

export interface Collector {
  /** Resolves when the round in progress (if any) has finished. */
  stop(): Promise<void>;
  /** One round now (tests, the CLI); rounds never overlap. */
  runOnce(): Promise<Record<string, number>>;
}

export function startCollector(
  work: CollectorRound,
  o: { intervalMs: number; concurrency: number; log: Logger; autoStart?: boolean },
): Collector {
  let running: Promise<Record<string, number>> = Promise.resolve({});
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function round(): Promise<Record<string, number>> {
    await work.beforeRound?.();
    const counts: Record<string, number> = {};
    const ids = await work.claim(o.concurrency * 4);
    let next = 0;
    const worker = async () => {
      while (next < ids.length && !stopped) {
        const id = ids[next++]!;
        const outcome = await work.collect(id).catch((err: unknown) => {
          o.log.error({ err, subscription_id: id }, 'collector: collecting a subscription failed');
          return 'error';
        });
        counts[outcome] = (counts[outcome] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(o.concurrency, ids.length) }, worker));
    counts.health_checked = await work.checkHealth();
    return counts;
  }

  const runOnce = () => {
    running = running.then(round, round);
    return running;
  };

  const tick = () => {
    void runOnce()
      .then((counts) => {
        const busy = Object.entries(counts).filter(([k, n]) => k !== 'health_checked' && n > 0);
        if (busy.length) o.log.info({ collected: counts }, 'collector round');
      })
      .catch((err: unknown) => o.log.warn({ err }, 'collector round failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, o.intervalMs);
      });
  };
  if (o.autoStart !== false) tick();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
