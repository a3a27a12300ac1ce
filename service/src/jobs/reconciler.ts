// Runs the pending-attempt reconciler at start-up and then on a timer, one round at a time.
// A round that fails (database or RPC down) is logged and retried on the next tick.
import type { Logger } from 'pino';

export interface Reconciler {
  /** Resolves when the round in progress (if any) has finished. */
  stop(): Promise<void>;
}

export function startReconciler(
  round: () => Promise<Record<string, number>>,
  intervalMs: number,
  log: Logger,
): Reconciler {
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const tick = () => {
    running = round()
      .then((counts) => {
        const settled = Object.entries(counts).filter(
          ([kind, n]) => kind !== 'pending' && kind !== 'unreachable' && n > 0,
        );
        if (settled.length) log.info({ reconciled: counts }, 'pending pull attempts resolved');
        if (counts.unreachable)
          log.warn({ reconciled: counts }, 'pending pull attempts could not be checked: the RPC did not answer');
      })
      .catch((err: unknown) => log.warn({ err }, 'reconciler round failed'))
      .finally(() => {
        if (!stopped && intervalMs > 0) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
