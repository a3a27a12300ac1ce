// Runs the figures: a probe request each (a figure whose endpoint does not answer 2xx is skipped
// with the reason), a warm-up each, then the measured runs interleaved round by round, so that
// the service and the reference servers are compared within the same minutes.
import { type Load, type LoadResult, runWrk } from './load.ts';
import { CPU_LOAD, CPU_SERVER, cpuBusyUs, cpuUs } from './procs.ts';

export type Group = 'service-pg' | 'service-pglite' | 'reference';

export interface Figure {
  id: string;
  endpoint: string;
  server: string;
  group: Group;
  base: string;
  pid: number; // the server's PID, to measure its CPU time per request
  /** Built per run: POST /subscriptions needs fresh plans each time (unique pairs). */
  load(seconds: number): Promise<Load>;
}

export interface Summary {
  rps: number;
  rpsMin: number;
  rpsMax: number;
  p50Us: number;
  p99Us: number;
  errors: number;
  requests: number;
  cpuUsPerReq: number | undefined; // the server process's CPU time per request (median of runs)
  otherCpu0Max: number; // worst share of CPU 0 taken by other processes during a run
  cpu1Busy: number; // median share of CPU 1 (wrk + PostgreSQL) in use
}

/**
 * otherCpu0: share of the server CPU used by anything but the server during the run (other
 * processes on a shared machine). Near 0 means the figure is clean. cpu0Busy / cpu1Busy: how busy
 * each CPU was; a server figure with CPU 1 near 100% is bounded by the load side (wrk + PostgreSQL).
 */
export type Run = LoadResult & { cpuUsPerReq?: number; otherCpu0?: number; cpu0Busy?: number; cpu1Busy?: number };

export interface FigureResult {
  id: string;
  endpoint: string;
  server: string;
  group: Group;
  runs: Run[];
  skipped?: string;
  failed?: string; // a run failed (server died, wrk error); the figure keeps the runs it had
  summary?: Summary;
}

export interface MeasureOptions {
  runs: number;
  durationS: number;
  warmupS: number;
  connections: number;
  threads: number;
  /** A run during which other processes took more than maxOtherCpu0 of CPU 0 is repeated, at most this often. */
  retries: number;
}

const MAX_OTHER_CPU0 = 0.1;

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function firstRequest(load: Load): { method: string; path: string; body?: string } {
  if (load.kind === 'static') return load;
  if (load.kind === 'cycle') return { method: load.method, path: load.paths[0], body: load.bodies?.[0] };
  const body = JSON.stringify({
    plan_id: load.planIds[0],
    customer_wallet_address: load.wallets[load.wallets.length - 1],
  });
  return { method: 'POST', path: load.path, body };
}

/** One request as wrk would send it; undefined when it answers 2xx, else the reason to skip. */
async function probe(fig: Figure): Promise<string | undefined> {
  const req = firstRequest(await fig.load(0));
  try {
    const res = await fetch(fig.base + req.path, {
      method: req.method,
      headers: req.body ? { 'content-type': 'application/json' } : {},
      body: req.body,
    });
    const text = await res.text();
    if (res.status >= 200 && res.status < 300) return undefined;
    return `${req.method} ${req.path} answered ${res.status}: ${text.slice(0, 160)}`;
  } catch (err) {
    return `${req.method} ${req.path} failed: ${(err as Error).message}`;
  }
}

export function summarize(runs: Run[]): Summary {
  const rps = runs.map((r) => r.rps);
  const e = (r: LoadResult) => r.errors.connect + r.errors.read + r.errors.write + r.errors.status + r.errors.timeout;
  return {
    rps: median(rps),
    rpsMin: Math.min(...rps),
    rpsMax: Math.max(...rps),
    p50Us: median(runs.map((r) => r.latencyUs.p50)),
    p99Us: median(runs.map((r) => r.latencyUs.p99)),
    errors: runs.reduce((n, r) => n + e(r), 0),
    requests: runs.reduce((n, r) => n + r.requests, 0),
    otherCpu0Max: Math.max(0, ...runs.map((r) => r.otherCpu0 ?? 0)),
    cpu1Busy: median(runs.map((r) => r.cpu1Busy ?? 0)),
    cpuUsPerReq: runs.every((r) => r.cpuUsPerReq !== undefined) ? median(runs.map((r) => r.cpuUsPerReq!)) : undefined,
  };
}

export async function measure(figs: Figure[], o: MeasureOptions, log: (s: string) => void): Promise<FigureResult[]> {
  const results = new Map<string, FigureResult>();
  const live: Figure[] = [];
  for (const f of figs) {
    const r: FigureResult = { id: f.id, endpoint: f.endpoint, server: f.server, group: f.group, runs: [] };
    results.set(f.id, r);
    r.skipped = await probe(f);
    if (r.skipped) log(`skip ${f.id}: ${r.skipped}`);
    else live.push(f);
  }
  if (o.warmupS > 0) {
    for (const f of live) {
      log(`warm-up ${f.id} (${o.warmupS} s)`);
      await runWrk(f.base, await f.load(o.warmupS), {
        seconds: o.warmupS,
        connections: o.connections,
        threads: o.threads,
      });
    }
  }
  for (let round = 1; round <= o.runs; round++) {
    for (const f of runOrder(live)) {
      const result = results.get(f.id)!;
      if (result.failed) continue;
      let res: Run;
      try {
        await waitQuiet(log);
        res = await runOnce(f, o);
        for (let retry = 1; retry <= o.retries && (res.otherCpu0 ?? 0) > MAX_OTHER_CPU0; retry++) {
          log(
            `run ${round}/${o.runs} ${f.id}: other processes took ${((res.otherCpu0 ?? 0) * 100).toFixed(0)}% of CPU 0, repeating (${retry}/${o.retries})`,
          );
          await waitQuiet(log);
          res = await runOnce(f, o);
        }
      } catch (err) {
        result.failed = `run ${round} failed: ${(err as Error).message.slice(0, 300)}`;
        log(`${f.id}: ${result.failed}`);
        continue;
      }
      const errs = res.errors.status + res.errors.timeout + res.errors.connect + res.errors.read + res.errors.write;
      log(
        `run ${round}/${o.runs} ${f.id.padEnd(18)} ${res.rps.toFixed(0).padStart(7)} req/s  p50 ${(res.latencyUs.p50 / 1000).toFixed(2)} ms  p99 ${(res.latencyUs.p99 / 1000).toFixed(2)} ms  cpu ${res.cpuUsPerReq?.toFixed(0) ?? '?'} µs/req  other on cpu0 ${((res.otherCpu0 ?? 0) * 100).toFixed(0)}%  cpu1 busy ${((res.cpu1Busy ?? 0) * 100).toFixed(0)}%${errs ? `  errors ${JSON.stringify(res.errors)}` : ''}`,
      );
      result.runs.push(res);
    }
  }
  for (const r of results.values()) if (r.runs.length) r.summary = summarize(r.runs);
  return [...results.values()];
}

// Figures compared by a ratio run back to back, so a change in the machine's load between them
// (it is shared) touches both alike. Others keep their order.
const PAIRS = ['pg.get-plan', 'ref.fastify-pg-prep', 'ref.express-pg', 'pg.post-plan', 'ref.fastify-pg-insert'];
function runOrder(figs: Figure[]): Figure[] {
  const rank = (f: Figure) => (PAIRS.includes(f.id) ? PAIRS.indexOf(f.id) : PAIRS.length);
  return [...figs].sort((a, b) => rank(a) - rank(b));
}

/**
 * Between runs nothing of ours is busy, so whatever uses the CPUs is someone else. Wait (up to
 * 2 minutes) until both CPUs have been under 10% busy for two seconds in a row.
 */
export async function waitQuiet(log: (s: string) => void): Promise<void> {
  const deadline = Date.now() + 120_000;
  let calm = 0;
  let waited = false;
  while (Date.now() < deadline && calm < 2) {
    const a = [cpuBusyUs(CPU_SERVER), cpuBusyUs(CPU_LOAD)];
    await new Promise((r) => setTimeout(r, 1000));
    const b = [cpuBusyUs(CPU_SERVER), cpuBusyUs(CPU_LOAD)];
    const busiest = Math.max(...a.map((x, i) => ((b[i] ?? 0) - (x ?? 0)) / 1e6));
    calm = busiest < 0.1 ? calm + 1 : 0;
    if (calm === 0 && !waited) {
      log(`waiting for other processes to leave the CPUs (${(busiest * 100).toFixed(0)}% busy)…`);
      waited = true;
    }
  }
}

/** One measured run, with the server's CPU time and other processes' share of CPU 0 around it. */
async function runOnce(f: Figure, o: MeasureOptions): Promise<Run> {
  const load = await f.load(o.durationS);
  const cpu0 = cpuUs(f.pid);
  const busy0 = cpuBusyUs(CPU_SERVER);
  const load0 = cpuBusyUs(CPU_LOAD);
  const t0 = performance.now();
  const res: Run = await runWrk(f.base, load, { seconds: o.durationS, connections: o.connections, threads: o.threads });
  const cpu1 = cpuUs(f.pid);
  const busy1 = cpuBusyUs(CPU_SERVER);
  const load1 = cpuBusyUs(CPU_LOAD);
  const wallUs = (performance.now() - t0) * 1000;
  if (busy0 !== undefined && busy1 !== undefined) res.cpu0Busy = (busy1 - busy0) / wallUs;
  if (load0 !== undefined && load1 !== undefined) res.cpu1Busy = (load1 - load0) / wallUs;
  if (cpu0 !== undefined && cpu1 !== undefined) {
    res.cpuUsPerReq = (cpu1 - cpu0) / res.requests;
    if (busy0 !== undefined && busy1 !== undefined)
      res.otherCpu0 = Math.max(0, (busy1 - busy0 - (cpu1 - cpu0)) / wallUs);
  }
  return res;
}
