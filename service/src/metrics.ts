// Prometheus metrics, one registry per Deps (tests build many apps in one process; prom-client's
// global registry would refuse the second). What an operator reads: requests by route and status
// with their latency, pull outcomes, RPC latency by method, pull attempts still pending.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type RequestChild = { count: Counter.Internal; seconds: Histogram.Internal<string> };

export interface Metrics {
  registry: Registry;
  /**
   * The recorder of one route (pattern, never the raw URL), made once when the route is added so
   * that a request costs one Map read by status, two increments and no allocation.
   */
  requestRecorder(method: string, route: string): (status: number, seconds: number) => void;
  /** confirmed | pending | failed, or the lower-cased error code of a refused pull. */
  countPull(outcome: string): void;
  observeRpc(method: string, seconds: number): void;
  /** A pull of this process seen in ledger `ledger` with its fee (stroops); `viaChannel` when a channel was its source. */
  observeFee(stroops: number, viaChannel: boolean, ledger?: number): void;
  /** Where the channel gauges read from (the gateway), set once the gateway exists. */
  watchChannels(read: () => Promise<{ total: number; leased: number } | undefined>): void;
}

/** How old the pending-pulls figure may be: scrapes in between reuse it instead of querying. */
export const PENDING_REFRESH_MS = 15_000;

/**
 * At most one read per `ms`, however often Prometheus (or several of them) scrape; concurrent
 * scrapes share the read in flight. A failed read keeps the last value (/ready reports outages).
 */
export function throttled(
  read: () => Promise<number>,
  ms: number,
  now = () => performance.now(),
): () => Promise<number | undefined> {
  let last: { at: number; value: number } | undefined;
  let running: Promise<number | undefined> | undefined;
  return () => {
    if (last && now() - last.at < ms) return Promise.resolve(last.value);
    running ??= read()
      .then((value) => {
        last = { at: now(), value };
        return value;
      })
      .catch(() => last?.value)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}

/** `pendingPulls` is read at most every PENDING_REFRESH_MS; undefined when there is no database. */
export function createMetrics(pendingPulls?: () => Promise<number>): Metrics {
  const pending = pendingPulls && throttled(pendingPulls, PENDING_REFRESH_MS);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request received to response sent, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const pulls = new Counter({
    name: 'billing_pull_outcomes_total',
    help: 'POST /trigger-pull outcomes: confirmed, pending, failed, or the code of a refusal',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const rpcSeconds = new Histogram({
    name: 'soroban_rpc_call_duration_seconds',
    help: 'Soroban RPC call latency by method (errors included)',
    labelNames: ['method'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'billing_pull_attempts_pending',
    help: 'Pull attempts sent but not resolved yet (202s and crashes, until the reconciler settles them); refreshed at most every 15 s',
    registers: [registry],
    async collect() {
      if (!pending) return;
      // A scrape must not fail because the database is down: /ready reports that.
      const n = await pending();
      if (n !== undefined) this.set(n);
    },
  });

  const fees = new Counter({
    name: 'billing_pull_fee_stroops_total',
    help: 'Fees charged for pulls this process sent, stroops (to the fee source: channel, fund account or merchant)',
    labelNames: ['source'],
    registers: [registry],
  });
  let readChannels: (() => Promise<{ total: number; leased: number } | undefined>) | undefined;
  const channelsRead = throttled(async () => {
    const c = readChannels ? await readChannels() : undefined;
    lastChannels = c;
    return c?.total ?? 0;
  }, 1_000);
  let lastChannels: { total: number; leased: number } | undefined;
  for (const state of ['free', 'leased'] as const) {
    new Gauge({
      name: `billing_channels_${state}`,
      help: `Channel accounts ${state === 'free' ? 'free to lease' : 'leased by a transaction in flight'} (all replicas)`,
      registers: [registry],
      async collect() {
        await channelsRead();
        if (!lastChannels) return;
        this.set(state === 'free' ? lastChannels.total - lastChannels.leased : lastChannels.leased);
      },
    });
  }
  // Pulls of this process per ledger: the count of the latest ledger that included any, and the
  // distribution once a ledger is complete (a later ledger was seen).
  const perLedger = new Histogram({
    name: 'billing_pulls_per_ledger',
    help: 'Pulls this process saw included, per ledger that included any',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
    registers: [registry],
  });
  const lastLedger = new Gauge({
    name: 'billing_pulls_in_latest_ledger',
    help: 'Pulls this process saw included in the latest ledger that included any',
    registers: [registry],
  });
  let current: { ledger: number; n: number } | undefined;

  return {
    registry,
    observeFee(stroops, viaChannel, ledger) {
      fees.inc({ source: viaChannel ? 'channel' : 'merchant' }, stroops);
      if (ledger === undefined) return;
      if (!current || ledger > current.ledger) {
        if (current) perLedger.observe(current.n);
        current = { ledger, n: 0 };
      }
      if (ledger === current.ledger) {
        current.n++;
        lastLedger.set(current.n);
      }
    },
    watchChannels(read) {
      readChannels = read;
    },
    requestRecorder(method, route) {
      // Label lookups hash a label object; children are resolved once per status and kept.
      const byStatus = new Map<number, RequestChild>();
      return (status, seconds) => {
        let child = byStatus.get(status);
        if (!child) {
          const labels = { method, route, status: String(status) };
          child = { count: requests.labels(labels), seconds: requestSeconds.labels(labels) };
          byStatus.set(status, child);
        }
        child.count.inc();
        child.seconds.observe(seconds);
      };
    },
    countPull: (outcome) => pulls.inc({ outcome }),
    observeRpc: (method, seconds) => rpcSeconds.observe({ method }, seconds),
  };
}
