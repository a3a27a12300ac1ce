// Item 7: where a GET /plans/{id} spends its CPU. Starts one more copy of the service under
// `node --cpu-prof`, drives GET /plans/{id} with wrk, stops it so the profile is written, and
// sums self time per function and per package. Open the .cpuprofile in Chrome DevTools
// (Performance → Load profile) or speedscope for the full call tree.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWrk } from './load.ts';
import type { Options } from './options.ts';
import type { BenchPg } from './pg-setup.ts';
import { cpuUs } from './procs.ts';
import { writeSection } from './report.ts';
import { createMerchant, createPlans, makeWallets } from './seed.ts';
import { startService } from './servers.ts';

const BENCHMARKS_MD = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./support/exit-on-sigterm.ts', import.meta.url));

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  startTime: number; // µs on the monotonic clock, the same clock as process.hrtime
  samples: number[];
  timeDeltas: number[];
}

const monoUs = () => Number(process.hrtime.bigint() / 1000n);

export interface Hot {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

/** Which package or part of Node a script URL belongs to. */
function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native / V8 builtins)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[url.startsWith('node:internal') ? 1 : 0]}`;
  if (url.includes('/service/src/')) return 'service/src';
  return url;
}

/** Self time per function and per package, counting only samples taken in [fromUs, toUs]. */
export function analyse(
  p: CpuProfile,
  fromUs = -Infinity,
  toUs = Infinity,
): { functions: Hot[]; areas: Hot[]; inclusive: Hot[]; busyMs: number } {
  const byNode = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fn = new Map<string, Hot>();
  const ar = new Map<string, Hot>();
  const inc = new Map<string, Hot>();
  let busy = 0;
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    const node = byNode.get(id);
    if (!node || at < fromUs || at > toUs) return;
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') return;
    busy += ms;
    const name = functionName || '(anonymous)';
    const where = url
      ? `${url.replace(/^file:\/\/.*?node_modules\//, '').replace(/^file:\/\/.*?\/service\//, 'service/')}:${lineNumber + 1}`
      : '';
    const key = `${name}@${where}`;
    const f = fn.get(key) ?? { name, where, selfMs: 0, share: 0 };
    f.selfMs += ms;
    fn.set(key, f);
    const a = area(url, name);
    const g = ar.get(a) ?? { name: a, where: '', selfMs: 0, share: 0 };
    g.selfMs += ms;
    ar.set(a, g);
    // Inclusive: every package on the stack is charged once, so pino's share includes the
    // serialisation and writes it calls, and the service's includes everything under its code.
    const seen = new Set<string>();
    for (let id2: number | undefined = id; id2 !== undefined; id2 = parent.get(id2)) {
      const cf = byNode.get(id2)!.callFrame;
      if (!cf.url) continue;
      seen.add(area(cf.url, cf.functionName));
    }
    for (const a2 of seen) {
      const h = inc.get(a2) ?? { name: a2, where: '', selfMs: 0, share: 0 };
      h.selfMs += ms;
      inc.set(a2, h);
    }
  });
  const finish = (m: Map<string, Hot>) =>
    [...m.values()].map((h) => ({ ...h, share: h.selfMs / busy })).sort((a, b) => b.selfMs - a.selfMs);
  return { functions: finish(fn), areas: finish(ar), inclusive: finish(inc), busyMs: busy };
}

interface Target {
  /** BENCHMARKS.md section and results sub-directory. */
  section: string;
  title: string;
  databaseUrl?: string;
  /** Paths wrk cycles through, given the merchant and its 1,000 plans. */
  paths: (merchant: string, planIds: string[]) => string[];
}

/** GET /plans/{id} on both databases (issue 15: the embedded path next to PostgreSQL's), and the listing. */
export async function profileService(o: Options, pg: BenchPg, log: (s: string) => void): Promise<void> {
  const plans = (_m: string, ids: string[]) => ids.map((id) => `/plans/${id}`);
  const targets: Target[] = [
    { section: 'profile', title: 'GET /plans/{id} on PostgreSQL', databaseUrl: pg.url, paths: plans },
    { section: 'profile-pglite', title: 'GET /plans/{id} on embedded PGlite (the `npm start` default)', paths: plans },
    {
      section: 'profile-listing',
      title: 'GET /merchants/{id}/subscriptions?limit=50 on PostgreSQL',
      databaseUrl: pg.url,
      paths: (m) => [`/merchants/${m}/subscriptions?limit=50`],
    },
  ];
  for (const t of targets) await profileOne(o, t, log);
}

async function profileOne(o: Options, t: Target, log: (s: string) => void): Promise<void> {
  const dir = join(o.results, t.section);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250', '--import', PRELOAD];
  // Production mode refuses the embedded database (config.ts), so PGlite runs as `npm start` does.
  const env = t.databaseUrl ? { NODE_ENV: 'production' } : {};
  const svc = await startService({ databaseUrl: t.databaseUrl, extraNodeArgs: nodeArgs, env });
  const wallets = makeWallets(60);
  const { id: merchant } = await createMerchant(svc.base, wallets[0]);
  const ids = await createPlans(svc.base, merchant, 1000);
  // 50 subscriptions and one more, so the listing has a full page and a next cursor.
  for (const w of wallets.slice(1, 52))
    await fetch(`${svc.base}/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan_id: ids[0], customer_wallet_address: w }),
    });
  const load = { kind: 'cycle' as const, method: 'GET' as const, paths: t.paths(merchant, ids) };
  const w = { connections: o.connections, threads: o.threads };
  log(`profiling ${t.title}: ${o.warmupS} s warm-up + ${o.durationS} s under --cpu-prof`);
  await runWrk(svc.base, load, { ...w, seconds: o.warmupS });
  const cpu0 = cpuUs(svc.proc.pid) ?? 0;
  const from = monoUs();
  const res = await runWrk(svc.base, load, { ...w, seconds: o.durationS });
  const to = monoUs();
  const cpuPerReq = ((cpuUs(svc.proc.pid) ?? 0) - cpu0) / res.requests;
  await svc.proc.stop('SIGTERM', 10_000);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    log(`no .cpuprofile written (did the service exit normally on SIGTERM?): ${svc.proc.output().slice(-500)}`);
    return;
  }
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
  const { functions, areas, inclusive, busyMs } = analyse(profile, from, to);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const fnRows = functions.slice(0, 25).map((h) => `| ${pct(h.share)} | \`${h.name}\` | ${h.where} |`);
  const incOf = new Map(inclusive.map((h) => [h.name, h.share]));
  const shown = new Set([...areas.slice(0, 18), ...inclusive.slice(0, 10)].map((h) => h.name));
  const arRows = areas
    .filter((h) => shown.has(h.name))
    .map((h) => `| ${pct(h.share)} | ${incOf.has(h.name) ? pct(incOf.get(h.name)!) : '—'} | ${h.name} |`);
  const md = `## Profile: ${t.title}

Command: \`npm run bench -- --profile\` (the service under \`node --cpu-prof --cpu-prof-interval=250\`,
${o.warmupS} s warm-up then ${o.durationS} s of wrk at ${o.connections} connections; the tables count only samples taken during those ${o.durationS} s).
Under the profiler: ${res.rps.toFixed(0)} req/s, ${cpuPerReq.toFixed(0)} µs of service CPU per request (profiler overhead included).
Profile file: \`${o.write ? `service/bench/results/${t.section}` : dir}/${file}\` (open in Chrome DevTools → Performance, or speedscope.app).
Self time excludes idle; ${(busyMs / 1000).toFixed(1)} s busy in the window; ${((busyMs * 1000) / res.requests).toFixed(0)} µs of sampled JavaScript + native time per request.
Native frames such as \`writev\` / \`writeUtf8String\` include the kernel's time in the socket write (loopback TCP).

| self time | inclusive | package / part of Node |
|---|---|---|
${arRows.join('\n')}

| self time | function | where |
|---|---|---|
${fnRows.join('\n')}
`;
  console.log(`\n${md}`);
  if (o.write) writeSection(BENCHMARKS_MD, t.section, md);
}
