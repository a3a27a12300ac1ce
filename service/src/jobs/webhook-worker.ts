// The delivery worker, in every replica: keeps up to `concurrency` deliveries in flight, claiming
// more as slots free up (the database hands each row to one replica only), and looks again every
// `pollIntervalMs` when there is nothing due. Deliveries run on their own promises, never on a
// request's, so a slow or dead receiver costs the API nothing but a socket. Once an hour it also
// forgets Idempotency-Key answers past their 24 h.
import type { Logger } from 'pino';
import type { EventVerbs } from '../deps.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../billing/idempotency/idempotent-request.ts';
import type { IdempotencyRepo } from '../billing/idempotency/idempotency-port.ts';

export interface WebhookWorker {
  /** Stops claiming and waits for the deliveries in flight (each bounded by its timeout). */
  stop(): Promise<void>;
  /** Looks for due work now (tests, and right after an event in this process). */
  poke(): void;
}

const PURGE_EVERY_MS = 3_600_000;

export function startWebhookWorker(o: {
  deliveries: EventVerbs['deliveries'];
  idempotency: Pick<IdempotencyRepo, 'purge'>;
  concurrency: number;
  pollIntervalMs: number;
  log: Logger;
}): WebhookWorker {
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let claiming = false;
  let lastPurge = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(pump, ms);
  };

  async function pump(): Promise<void> {
    if (stopped || claiming) return;
    const free = o.concurrency - inFlight.size;
    if (free <= 0) return; // a finishing delivery pumps again
    claiming = true;
    let claimed: Awaited<ReturnType<typeof o.deliveries.claimDeliveries>> = [];
    try {
      claimed = await o.deliveries.claimDeliveries(free);
      if (Date.now() - lastPurge > PURGE_EVERY_MS) {
        lastPurge = Date.now();
        await o.idempotency.purge(IDEMPOTENCY_WINDOW_MS);
      }
    } catch (err) {
      o.log.warn({ err }, 'webhook worker could not claim deliveries');
    } finally {
      claiming = false;
    }
    for (const delivery of claimed) {
      const p = o.deliveries
        .deliverOne(delivery)
        .then((outcome) => {
          if (outcome === 'disabled')
            o.log.warn({ endpoint_id: delivery.endpoint_id }, 'webhook endpoint disabled: it kept failing');
        })
        .catch((err: unknown) =>
          o.log.warn(
            { err, delivery_id: delivery.id },
            'webhook delivery could not be recorded; it will be retried when its lease runs out',
          ),
        )
        .finally(() => {
          inFlight.delete(p);
          schedule(0);
        });
      inFlight.add(p);
    }
    // A full batch suggests more is due: look again at once; otherwise wait.
    schedule(claimed.length === free ? 0 : o.pollIntervalMs);
  }

  schedule(0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(inFlight);
    },
    poke: () => schedule(0),
  };
}
