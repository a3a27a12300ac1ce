// Bench settings from flags and environment. Defaults are the published figures (3 × 10 s after
// a 5 s warm-up, 50 connections); BENCH_QUICK=1 / --quick is for checking the harness itself.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export interface Options {
  quick: boolean;
  runs: number;
  durationS: number;
  warmupS: number;
  connections: number;
  threads: number;
  retries: number; // repeats of a run disturbed by other processes on the server CPU
  scale: boolean; // item 5: 1M subscriptions / 100k plans, EXPLAIN plans, 60 s RSS
  scaleOnly: boolean; // skip the HTTP figures, run only the scale part
  rssSeconds: number;
  profile: boolean; // one extra GET /plans/{id} run with node --cpu-prof
  figures: string[]; // figure ids to run (prefix match); empty = all
  write: boolean; // update BENCHMARKS.md and results/
  results: string; // where charts, JSON and profiles go: results/, or a temp dir with --no-write
  pglite: boolean;
  webhooks: boolean; // the outbox's cost on POST /subscriptions and delivery throughput (short)
  webhooksOnly: boolean;
  coldStart: boolean; // npm start on a fresh clone to /health 200, HEAD against a baseline commit
}

const HELP = `npm run bench [-- options]
  --quick            3 × 3 s runs after 2 s warm-up (also BENCH_QUICK=1)
  --runs=N           measured runs per figure (BENCH_RUNS, default 3)
  --duration=S       seconds per run (BENCH_DURATION, default 10)
  --warmup=S         warm-up seconds per figure (BENCH_WARMUP, default 5)
  --connections=N    wrk connections (BENCH_CONNECTIONS, default 50)
  --retries=N        repeat a run when other processes took >10% of the server CPU (BENCH_RETRIES, default 2)
  --scale            also run the scale part: 1M subscriptions, EXPLAIN, 60 s RSS (BENCH_SCALE=1)
  --scale-only       only the scale part (BENCH_SCALE_ONLY=1)
  --rss-seconds=S    length of the RSS load in the scale part (default 60)
  --profile          also profile GET /plans/{id} with node --cpu-prof (BENCH_PROFILE=1)
  --figures=a,b      run only figures whose id starts with one of these (BENCH_FIGURES)
  --no-pglite        skip the PGlite figures (BENCH_NO_PGLITE=1)
  --no-write         print only; leave BENCHMARKS.md alone (BENCH_NO_WRITE=1)
  --no-webhooks      skip the webhooks part: outbox cost and delivery throughput (BENCH_NO_WEBHOOKS=1)
  --no-cold-start    skip the cold-start part: npm start on a fresh clone to /health 200 (BENCH_NO_COLD_START=1)
  --webhooks-only    only the webhooks part, ~1 min (BENCH_WEBHOOKS_ONLY=1); BENCH_OUTBOX_BASELINE=<rev> picks the "before" build`;

const env = process.env;
const flag = (name: string) => env[name] === '1' || env[name] === 'true';

// The root script is `npm run bench -w service`, so `npm run bench -- --quick` reaches npm, not
// us: npm turns each unknown --flag into an npm_config_flag variable. Read them back as flags.
// (`--runs 1` with a space loses its value that way; `--runs=1` keeps it.)
function fromNpm(names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const v = env[`npm_config_${name.replace(/-/g, '_')}`];
    if (v === undefined) continue;
    if (v === 'true') out.push(`--${name}`);
    else if (v === '' || v === 'false') out.push(`--no-${name}`);
    else out.push(`--${name}=${v}`);
  }
  return out;
}

const NPM_FLAGS = [
  'quick',
  'runs',
  'duration',
  'warmup',
  'connections',
  'retries',
  'scale',
  'scale-only',
  'rss-seconds',
  'profile',
  'figures',
  'pglite',
  'write',
  'webhooks',
  'webhooks-only',
  'cold-start',
];

export function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: [...fromNpm(NPM_FLAGS), ...argv],
    allowPositionals: true,
    allowNegative: true,
    options: {
      quick: { type: 'boolean' },
      runs: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      retries: { type: 'string' },
      scale: { type: 'boolean' },
      'scale-only': { type: 'boolean' },
      'rss-seconds': { type: 'string' },
      profile: { type: 'boolean' },
      figures: { type: 'string' },
      pglite: { type: 'boolean' },
      write: { type: 'boolean' },
      webhooks: { type: 'boolean' },
      'cold-start': { type: 'boolean' },
      'webhooks-only': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (positionals.length) console.warn(`ignoring ${positionals.join(' ')}: write options as --name=value`);
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const quick = values.quick ?? flag('BENCH_QUICK');
  const num = (v: string | undefined, e: string | undefined, d: number) => Number(v ?? e ?? d);
  const scaleOnly = values['scale-only'] ?? flag('BENCH_SCALE_ONLY');
  const o = {
    quick,
    runs: num(values.runs, env.BENCH_RUNS, 3),
    durationS: num(values.duration, env.BENCH_DURATION, quick ? 3 : 10),
    warmupS: num(values.warmup, env.BENCH_WARMUP, quick ? 2 : 5),
    connections: num(values.connections, env.BENCH_CONNECTIONS, 50),
    threads: 1, // wrk has one CPU to itself; a second thread would only share it
    retries: num(values.retries, env.BENCH_RETRIES, 2),
    scale: scaleOnly || (values.scale ?? flag('BENCH_SCALE')),
    scaleOnly,
    rssSeconds: num(values['rss-seconds'], env.BENCH_RSS_SECONDS, quick ? 15 : 60),
    profile: values.profile ?? flag('BENCH_PROFILE'),
    figures: (values.figures ?? env.BENCH_FIGURES ?? '').split(',').filter(Boolean),
    write: values.write ?? !flag('BENCH_NO_WRITE'),
    results: '',
    pglite: values.pglite ?? !flag('BENCH_NO_PGLITE'),
    webhooksOnly: values['webhooks-only'] ?? flag('BENCH_WEBHOOKS_ONLY'),
    webhooks: values.webhooks ?? !flag('BENCH_NO_WEBHOOKS'),
    coldStart: values['cold-start'] ?? !flag('BENCH_NO_COLD_START'),
  };
  // The committed results/ always match BENCHMARKS.md; a --no-write run keeps its files aside.
  o.results = o.write
    ? fileURLToPath(new URL('./results/', import.meta.url))
    : mkdtempSync(join(tmpdir(), 'billing-bench-results-'));
  return o;
}
