// `npm run bench`: HTTP figures of the service on PostgreSQL and PGlite against reference
// servers, in one run, with ratios against the targets of issue 6; optionally a CPU profile
// (--profile) and the scale part (--scale). Everything it starts, it stops.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type References, referenceFigures, serviceFigures } from './figures.ts';
import { wrkAvailable } from './load.ts';
import { machine, machineMarkdown } from './machine.ts';
import { type FigureResult, measure } from './measure.ts';
import { type Options, parseOptions } from './options.ts';
import { type BenchPg, startBenchPg } from './pg-setup.ts';
import { affinity, canPin, cleanupAll, installSignalHandlers, onCleanup, pinSelf } from './procs.ts';
import { profileService } from './profile.ts';
import { computeRatios, ratiosConsole, ratiosMarkdown, tableConsole, tableMarkdown, writeSection } from './report.ts';
import { runScale } from './scale.ts';
import { type Seeded, makeWallets, seed } from './seed.ts';
import { type Server, startReference, startService } from './servers.ts';
import { latencyChart, throughputChart } from './svg.ts';
import { runWebhooks } from './webhooks.ts';
import { coldStartMarkdown, measureColdStart } from './cold-start.ts';

export const BENCHMARKS_MD = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const log = (s: string) => console.log(`[bench] ${s}`);

/** The command line that reproduces this run, for BENCHMARKS.md. */
export function commandLine(): string {
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  const args = process.argv.slice(2);
  return `${env}npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
}

/** The plans table the reference servers read, when the service cannot create it (not runnable yet). */
async function standInSchema(pg: BenchPg, n: number): Promise<Seeded> {
  await pg.sql(
    `CREATE TABLE IF NOT EXISTS merchants (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL)`,
  );
  await pg.sql(`CREATE TABLE IF NOT EXISTS plans (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), merchant_id uuid NOT NULL REFERENCES merchants (id),
    name text NOT NULL, token_amount numeric NOT NULL, interval_seconds integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now())`);
  const [{ id: merchantId }] = await pg.sql<{ id: string }>(
    `INSERT INTO merchants (name) VALUES ('Bench merchant') RETURNING id`,
  );
  const plans = await pg.sql<{ id: string }>(
    `INSERT INTO plans (merchant_id, name, token_amount, interval_seconds)
     SELECT $1, 'Bench plan ' || i, 10000000, 2592000 FROM generate_series(1, $2) AS i RETURNING id`,
    [merchantId, n],
  );
  return { merchantId, planIds: plans.map((p) => p.id), subscriptionIds: [] };
}

async function startReferences(pg: BenchPg, planIds: string[], withPglite: boolean): Promise<References> {
  const env = { DATABASE_URL: pg.url, POOL_SIZE: '10' };
  const idsFile = join(tmpdir(), `billing-bench-plan-ids-${process.pid}.txt`);
  writeFileSync(idsFile, planIds.join('\n'));
  onCleanup(() => rmSync(idsFile, { force: true }));
  return {
    prepared: await startReference('fastify-pg.ts', ['--prepared'], env),
    plain: await startReference('fastify-pg.ts', [], env),
    express: await startReference('express-pg.ts', [], env),
    insert: await startReference('fastify-pg-insert.ts', [], env),
    hello: await startReference('fastify-hello.ts', [], {}),
    pglite: withPglite ? await startReference('fastify-pglite.ts', [], { PLAN_IDS_FILE: idsFile }) : undefined,
    list: await startReference('fastify-pg-list.ts', [], env),
  };
}

async function httpFigures(o: Options, pg: BenchPg): Promise<FigureResult[]> {
  const notes: string[] = [];
  let svc: Server | undefined;
  try {
    svc = await startService({ databaseUrl: pg.url, env: { NODE_ENV: 'production', DB_POOL_SIZE: '10' } });
  } catch (err) {
    const msg = (err as Error).message.split('\n').slice(0, 6).join(' ');
    notes.push(
      `The service did not start, so only the reference servers were measured (on a stand-in plans table): ${msg}`,
    );
    log(`service did not start: ${msg}`);
  }
  log('making 10,000 wallets for POST /subscriptions…');
  const wallets = makeWallets(10_000);
  const N = 1000;
  const seeded = svc ? await seed(svc.base, N, wallets) : await standInSchema(pg, N);
  log(`seeded ${seeded.planIds.length} plans, ${seeded.subscriptionIds.length} subscriptions`);
  let lite: Server | undefined;
  let liteSeeded: Seeded | undefined;
  if (svc && o.pglite) {
    lite = await startService({});
    liteSeeded = await seed(lite.base, N, wallets);
  }
  const refs = await startReferences(pg, seeded.planIds, o.pglite);
  const where = [svc, lite, refs.prepared]
    .filter((x) => x !== undefined)
    .map((x) => `${x.name} on CPU ${affinity(x.proc.pid)}`);
  log(`pinned: ${where.join(', ')}; bench and PostgreSQL on CPU ${affinity(process.pid)}`);
  let figs = [
    ...(svc ? serviceFigures('pg', 'service-pg', svc, seeded, wallets) : []),
    ...(lite && liteSeeded ? serviceFigures('lite', 'service-pglite', lite, liteSeeded, wallets) : []),
    ...referenceFigures(refs, seeded.planIds, seeded.merchantId),
  ];
  if (o.figures.length) figs = figs.filter((f) => o.figures.some((p) => f.id.startsWith(p)));
  if (figs.length === 0) {
    log('no figures selected (--figures); HTTP section left as it was');
    return [];
  }
  log(
    `${figs.length} figures × ${o.runs} runs × ${o.durationS} s, warm-up ${o.warmupS} s, ${o.connections} connections`,
  );
  const results = await measure(figs, o, log);
  const ratios = computeRatios(results);
  console.log(`\n${tableConsole(results)}\n\n${ratiosConsole(ratios)}\n`);

  mkdirSync(o.results, { recursive: true });
  writeFileSync(join(o.results, 'http.json'), JSON.stringify({ command: commandLine(), results, ratios }));
  writeFileSync(
    join(o.results, 'throughput.svg'),
    throughputChart(results, 'Throughput per endpoint, service vs reference servers'),
  );
  const charts: string[] = [];
  for (const endpoint of [...new Set(results.filter((r) => r.summary).map((r) => r.endpoint))]) {
    const slug =
      endpoint
        .replace(/[^a-z]+/gi, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase() || 'root';
    const file = `latency-${slug}.svg`;
    writeFileSync(
      join(o.results, file),
      latencyChart(
        results.filter((r) => r.endpoint === endpoint),
        `Latency distribution: ${endpoint}`,
      ),
    );
    charts.push(`![${endpoint}](service/bench/results/${file})`);
  }
  if (!o.write) log(`--no-write: charts and JSON in ${o.results}`);
  if (o.write) {
    const m = machine(pg.version);
    const skipped = results.filter((r) => r.skipped).map((r) => `- ${r.server} ${r.endpoint} skipped: ${r.skipped}`);
    const missed = ratios
      .filter((r) => r.met === false)
      .map((r) => `- Missed: ${r.name} (target ${r.target}); see the notes below.`);
    writeSection(
      BENCHMARKS_MD,
      'http',
      `## HTTP figures${o.quick ? ' (quick mode: short runs, for checking the harness, not for quoting)' : ''}

Command: \`${commandLine()}\` (from the repository root)

${machineMarkdown(m)}
- Layout: the server under test on CPU 0 (\`taskset -c 0\`); wrk 1 thread × ${o.connections} connections, PostgreSQL and the orchestrator on CPU 1${canPin() ? '' : ' (**not pinned**: fewer than 2 CPUs or no taskset)'}
- Each figure: ${o.warmupS} s warm-up, then ${o.runs} runs × ${o.durationS} s, interleaved round by round across all servers; median (min–max) of the runs; p50/p99 are medians of the runs' values
- Server CPU µs/req: the server process's user+system time during a run ÷ its requests. Other load on CPU 0: time other processes took on the server's CPU during the run (this machine is shared); a run above 10% is repeated up to ${o.retries} times, the column shows the worst run kept. CPU 1 busy: wrk + PostgreSQL's CPU; near 100% means the figure is bounded by the load side, not the server
- Data: 1 merchant, ${N} plans, ${N} subscriptions created through the service's API; GET figures cycle through all ${N} ids; POST /subscriptions uses a fresh (plan, wallet) pair per request
- PostgreSQL ${m.postgres} under /tmp with fsync, synchronous_commit and full_page_writes on (durable commits); service and references use a pool of 10; the service runs with NODE_ENV=production, LOG_LEVEL=warn
- PGlite: the service with DATABASE_URL unset (embedded, files in a temp dir), in the service's process on CPU 0

${tableMarkdown(results)}

${ratiosMarkdown(ratios)}

${[...missed, ...skipped, ...notes.map((n) => `- ${n}`)].join('\n')}

![throughput](service/bench/results/throughput.svg)

${charts.join('\n')}
`,
    );
    log(`wrote ${BENCHMARKS_MD} and charts in ${o.results}`);
  }
  return results;
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  installSignalHandlers();
  if (!wrkAvailable()) {
    console.error('wrk is not installed. Install it with: apt-get update && apt-get install -y wrk');
    process.exit(1);
  }
  if (!canPin())
    log('warning: fewer than 2 CPUs or no taskset; server and load share CPUs, figures are not comparable');
  pinSelf();
  const pg = await startBenchPg();
  log(`PostgreSQL ${pg.version} at ${pg.url}`);
  // Each part stands alone: a failure in one is reported and the next still runs.
  const part = async (name: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      process.exitCode = 1;
      console.error(`[bench] ${name} failed:`, err);
    }
  };
  if (o.webhooksOnly) {
    await part('webhooks', () => runWebhooks(o, pg, log));
    return;
  }
  if (!o.scaleOnly) await part('HTTP figures', () => httpFigures(o, pg));
  if (o.webhooks && !o.scaleOnly) await part('webhooks', () => runWebhooks(o, pg, log));
  if (o.coldStart && !o.scaleOnly)
    await part('cold start', async () => {
      const rs = await measureColdStart(log);
      const dirty = machine(pg.version).dirty;
      if (o.write) writeSection(BENCHMARKS_MD, 'cold-start', coldStartMarkdown(rs, dirty));
      else console.log(coldStartMarkdown(rs, dirty));
    });
  if (o.profile) await part('profile', () => profileService(o, pg, log));
  if (o.scale) await part('scale', () => runScale(o, pg, log));
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanupAll();
}
