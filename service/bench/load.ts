// Load generation with wrk (Debian package), pinned to the load CPU. Each figure gets a small
// generated Lua script: a static request when every request is the same (wrk's fastest path),
// or a request() that cycles through pre-built requests / unique (plan, wallet) pairs. A done()
// hook prints the latency distribution as one JSON line, which is all we parse.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CPU_LOAD, onCleanup, start } from './procs.ts';

export type Load =
  | { kind: 'static'; method: 'GET' | 'POST'; path: string; body?: string }
  /** Cycle through paths (GET by many ids) or bodies (POST) in order; headers go on every request. */
  | { kind: 'cycle'; method: 'GET' | 'POST'; paths: string[]; bodies?: string[]; headers?: Record<string, string> }
  /** POST /subscriptions: request i uses plans[i % P] and wallets[floor(i / P)], so no pair repeats. */
  | { kind: 'subscribe'; path: string; planIds: string[]; wallets: string[] };

export interface LoadResult {
  rps: number;
  requests: number;
  durationS: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: {
    min: number;
    mean: number;
    max: number;
    p50: number;
    p75: number;
    p90: number;
    p99: number;
    p999: number;
  };
  /** [percentile, microseconds] pairs for the latency-distribution chart. */
  dist: Array<[number, number]>;
}

const PCTS = [...Array.from({ length: 99 }, (_, i) => i + 1), 99.5, 99.9, 99.99];

const DONE = `
function done(summary, latency, requests)
  local e = summary.errors
  local parts = {}
  for _, q in ipairs({${PCTS.join(',')}}) do
    parts[#parts + 1] = string.format("[%s,%d]", tostring(q), latency:percentile(q))
  end
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"min":%d,"max":%d,"mean":%.1f,"dist":[%s]}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.max, latency.mean, table.concat(parts, ",")))
end
`;

// Threads get disjoint request sequences: thread t sends indices t, t+T, t+2T, …
const THREADS = `
local counter = 0
function setup(thread) thread:set("tid", counter); counter = counter + 1 end
`;

const lua = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal for our ASCII data

let dir: string | undefined;
function workDir(): string {
  if (!dir) {
    const d = mkdtempSync(join(tmpdir(), 'billing-bench-wrk-'));
    dir = d;
    onCleanup(() => rmSync(d, { recursive: true, force: true }));
  }
  return dir;
}

let seq = 0;
function script(load: Load, threads: number): string {
  const d = workDir();
  const n = ++seq;
  const file = (name: string, lines: string[]) => {
    const p = join(d, `${n}-${name}.txt`);
    writeFileSync(p, `${lines.join('\n')}\n`);
    return p;
  };
  const json = `wrk.headers["Content-Type"] = "application/json"\n`;
  let body: string;
  if (load.kind === 'static') {
    body =
      `wrk.method = ${lua(load.method)}\nwrk.path = ${lua(load.path)}\n` +
      (load.body ? `wrk.body = ${lua(load.body)}\n${json}` : '');
  } else if (load.kind === 'cycle') {
    const paths = file('paths', load.paths);
    const bodies = load.bodies ? file('bodies', load.bodies) : undefined;
    const headers = Object.entries(load.headers ?? {})
      .map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}\n`)
      .join('');
    body = `${json}${headers}${THREADS}
local reqs, i = {}, 0
function init(args)
  local bodies = {}
  ${bodies ? `for l in io.lines(${lua(bodies)}) do bodies[#bodies + 1] = l end` : ''}
  local k = 0
  for l in io.lines(${lua(paths)}) do
    k = k + 1
    reqs[#reqs + 1] = wrk.format(${lua(load.method)}, l, nil, bodies[((k - 1) % math.max(#bodies, 1)) + 1])
  end
  i = (tid or 0)
end
function request()
  local r = reqs[(i % #reqs) + 1]
  i = i + ${threads}
  return r
end
`;
  } else {
    const plans = file('plans', load.planIds);
    const wallets = file('wallets', load.wallets);
    body = `${json}wrk.method = "POST"\nwrk.path = ${lua(load.path)}\n${THREADS}
local plans, wallets, i = {}, {}, 0
function init(args)
  for l in io.lines(${lua(plans)}) do plans[#plans + 1] = l end
  for l in io.lines(${lua(wallets)}) do wallets[#wallets + 1] = l end
  i = (tid or 0)
end
function request()
  local p = plans[(i % #plans) + 1]
  local w = wallets[(math.floor(i / #plans) % #wallets) + 1]
  i = i + ${threads}
  return wrk.format(nil, nil, nil, '{"plan_id":"' .. p .. '","customer_wallet_address":"' .. w .. '"}')
end
`;
  }
  const path = join(d, `${n}.lua`);
  writeFileSync(path, body + DONE);
  return path;
}

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['-v']).error === undefined;
}

export function wrkVersion(): string {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  return (r.stdout || r.stderr || '').split('\n')[0]?.trim() ?? 'unknown';
}

/** Largest number of requests a subscribe load can send before a (plan, wallet) pair repeats. */
export function subscribeCapacity(load: Extract<Load, { kind: 'subscribe' }>): number {
  return load.planIds.length * load.wallets.length;
}

export async function runWrk(
  baseUrl: string,
  load: Load,
  o: { seconds: number; connections: number; threads: number },
): Promise<LoadResult> {
  const path = load.kind === 'static' ? load.path : load.kind === 'cycle' ? load.paths[0] : load.path;
  const args = [
    `-t${o.threads}`,
    `-c${o.connections}`,
    `-d${o.seconds}s`,
    '--timeout',
    '5s',
    '-s',
    script(load, o.threads),
    baseUrl + path,
  ];
  const proc = start('wrk', args, { cpu: CPU_LOAD });
  const code = await proc.exited;
  const out = proc.output();
  const line = out.split('\n').find((l) => l.startsWith('WRKJSON '));
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${out}`);
  const r = JSON.parse(line.slice(8)) as {
    requests: number;
    duration_us: number;
    errors: LoadResult['errors'];
    min: number;
    max: number;
    mean: number;
    dist: Array<[number, number]>;
  };
  const at = (p: number) => r.dist.find(([q]) => q === p)?.[1] ?? NaN;
  const durationS = r.duration_us / 1e6;
  return {
    rps: r.requests / durationS,
    requests: r.requests,
    durationS,
    errors: r.errors,
    latencyUs: {
      min: r.min,
      mean: r.mean,
      max: r.max,
      p50: at(50),
      p75: at(75),
      p90: at(90),
      p99: at(99),
      p999: at(99.9),
    },
    dist: r.dist,
  };
}
