// The webhooks part of `npm run bench` (issue 13), short by design:
//   outbox  POST /subscriptions on the service as it is, beside the same service built from the
//           commit before events existed (`git archive`, no outbox, no transaction around the
//           INSERT), and beside the service with a webhook endpoint listening (event + delivery
//           row, and deliveries sent while the load runs): the ratio is the outbox's added cost;
//   delivery events delivered per second to a receiver on loopback: N events are written while
//           the worker is idle, then one worker drains them (WEBHOOK_CONCURRENCY in flight).
// Each server gets a database of its own on the bench's PostgreSQL.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { Webhook } from 'standardwebhooks';
import { serviceFigures } from './figures.ts';
import { measure } from './measure.ts';
import type { Options } from './options.ts';
import type { BenchPg } from './pg-setup.ts';
import { onCleanup } from './procs.ts';
import { writeSection } from './report.ts';
import { createMerchant, createPlans, makeWallets } from './seed.ts';
import { SERVICE_DIR, startService, type Server } from './servers.ts';

const REPO = join(SERVICE_DIR, '..');
const MIGRATION = 'service/src/storage/migrations/0008_events_webhooks.sql';

/** The commit before the one that brought events in, as a runnable copy; undefined outside git. */
function baselineCopy(rev: string | undefined): { dir: string; rev: string } | undefined {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', REPO, ...args], { encoding: 'utf8' }).trim();
    const added = git('log', '--diff-filter=A', '--format=%H', '--', MIGRATION).split('\n').at(-1);
    const base = rev ?? (added ? `${added}^` : undefined);
    if (!base) return undefined;
    const sha = git('rev-parse', '--short', base);
    const dir = mkdtempSync(join(tmpdir(), 'billing-bench-baseline-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    execFileSync('sh', [
      '-c',
      `git -C "${REPO}" archive ${sha} package.json service/package.json service/src | tar -x -C "${dir}"`,
    ]);
    // The same installed packages (the baseline's are a subset of today's).
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    return { dir, rev: sha };
  } catch {
    return undefined;
  }
}

async function database(pg: BenchPg, name: string): Promise<string> {
  await pg.sql(`DROP DATABASE IF EXISTS ${name}`);
  await pg.sql(`CREATE DATABASE ${name}`);
  const url = new URL(pg.url);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A receiver on the load CPU's process (this one): counts and timestamps arrivals, answers 204. */
async function receiver() {
  const arrivals: number[] = [];
  let sample: { raw: string; headers: Record<string, string> } | undefined;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      arrivals.push(performance.now());
      sample ??= { raw, headers: req.headers as Record<string, string> };
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  onCleanup(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals, sample: () => sample };
}

async function endpoint(base: string, apiKey: string, url: string, types: string[]): Promise<string> {
  const res = await fetch(`${base}/webhook-endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ url, event_types: types }),
  });
  if (res.status !== 201) throw new Error(`POST /webhook-endpoints → ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { secret: string }).secret;
}

const KEK = Buffer.alloc(32, 7).toString('base64');
const common = {
  NODE_ENV: 'development',
  DB_POOL_SIZE: '10',
  SIGNING_KEY_ENCRYPTION_KEY: KEK,
  RECONCILE_INTERVAL_MS: '0',
};

async function outboxFigures(o: Options, pg: BenchPg, log: (s: string) => void) {
  const base = baselineCopy(process.env.BENCH_OUTBOX_BASELINE);
  const wallets = makeWallets(10_000);
  const rx = await receiver();
  const servers: { prefix: string; srv: Server }[] = [];
  const withEndpoint = await startService({ databaseUrl: await database(pg, 'bench_outbox_endpoint'), env: common });
  const plain = await startService({ databaseUrl: await database(pg, 'bench_outbox_with'), env: common });
  servers.push({ prefix: 'outbox.with', srv: plain }, { prefix: 'outbox.endpoint', srv: withEndpoint });
  if (base) {
    const without = await startService({
      databaseUrl: await database(pg, 'bench_outbox_without'),
      env: common,
      entry: join(base.dir, 'service/src/main.ts'),
    });
    servers.unshift({ prefix: 'outbox.without', srv: without });
  }
  const figs = [];
  for (const { prefix, srv } of servers) {
    const m = await createMerchant(srv.base, Keypair.random().publicKey());
    if (srv === withEndpoint) await endpoint(srv.base, m.apiKey, rx.url, ['subscription.created']);
    const planIds = await createPlans(srv.base, m.id, 1);
    const seeded = { merchantId: m.id, planIds, subscriptionIds: [] };
    const fig = serviceFigures(prefix, 'service-pg', srv, seeded, wallets).find((f) => f.id.endsWith('post-sub'))!;
    figs.push({
      ...fig,
      server:
        prefix === 'outbox.without'
          ? `before events (${base!.rev})`
          : prefix === 'outbox.with'
            ? 'with outbox'
            : 'with outbox + an endpoint',
    });
  }
  const mo = { ...o, runs: Math.min(o.runs, 3), durationS: Math.min(o.durationS, 5), warmupS: Math.min(o.warmupS, 2) };
  log(`outbox: ${figs.length} figures × ${mo.runs} runs × ${mo.durationS} s`);
  const results = await measure(figs, mo, log);
  for (const { srv } of servers) await srv.proc.stop();
  return { results, base, delivered: rx.arrivals.length, mo };
}

async function deliveryThroughput(pg: BenchPg, log: (s: string) => void, n: number) {
  const rx = await receiver();
  // Idle for 8 s after its first look: the events are all written before it looks again.
  const srv = await startService({
    databaseUrl: await database(pg, 'bench_delivery'),
    env: { ...common, WEBHOOK_POLL_INTERVAL_MS: '8000' },
  });
  const started = performance.now();
  const m = await createMerchant(srv.base, Keypair.random().publicKey());
  const secret = await endpoint(srv.base, m.apiKey, rx.url, ['plan.created']);
  await createPlans(srv.base, m.id, n);
  const written = performance.now();
  log(`delivery: ${n} events written in ${Math.round(written - started)} ms; waiting for the worker`);
  const until = Date.now() + 60_000;
  while (rx.arrivals.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const got = rx.arrivals.length;
  const s = rx.sample();
  const verified = s
    ? (() => {
        try {
          new Webhook(secret).verify(s.raw, s.headers);
          return true;
        } catch {
          return false;
        }
      })()
    : false;
  const spanMs = got > 1 ? rx.arrivals[got - 1] - rx.arrivals[0] : NaN;
  await srv.proc.stop();
  return { n, got, perSecond: (got - 1) / (spanMs / 1000), spanMs, verified };
}

export async function runWebhooks(o: Options, pg: BenchPg, log: (s: string) => void): Promise<void> {
  const out = await outboxFigures(o, pg, log);
  const d = await deliveryThroughput(pg, log, 2000);
  const rps = (prefix: string) => out.results.find((r) => r.id === `${prefix}.post-sub`)?.summary?.rps;
  const without = rps('outbox.without');
  const withOutbox = rps('outbox.with');
  const withEp = rps('outbox.endpoint');
  const ratio = (a?: number, b?: number) => (a && b ? (a / b).toFixed(2) : 'n/a');
  const cpu = (prefix: string) => out.results.find((r) => r.id === `${prefix}.post-sub`)?.summary?.cpuUsPerReq;
  const cpuNote = `Server CPU per request: ${Math.round(cpu('outbox.without') ?? NaN)} µs before events, ${Math.round(cpu('outbox.with') ?? NaN)} µs with the outbox: what the outbox adds is mostly PostgreSQL's work (the event row, its indexes, the endpoints look-up), on the CPU it shares with wrk.`;
  const row = (r: (typeof out.results)[number]) =>
    `| ${r.server} | ${r.summary ? Math.round(r.summary.rps) : (r.skipped ?? r.failed)} | ${r.summary ? (r.summary.p50Us / 1000).toFixed(2) : ''} | ${r.summary ? (r.summary.p99Us / 1000).toFixed(2) : ''} | ${r.summary?.cpuUsPerReq ? Math.round(r.summary.cpuUsPerReq) : ''} |`;
  const text = `## Events and webhooks (short runs)

Command: \`npm run bench -- --webhooks-only\` (from the repository root). Each server on a database of its own on the bench's PostgreSQL (durable commits), pinned like the HTTP figures; NODE_ENV=development (a loopback receiver is refused in production); ${out.mo.runs} runs × ${out.mo.durationS} s after ${out.mo.warmupS} s warm-up, median.

**The outbox's cost on POST /subscriptions** (each request a fresh (plan, wallet) pair):

| server | req/s | p50 ms | p99 ms | server CPU µs/req |
|---|---|---|---|---|
${out.results.map(row).join('\n')}

- with outbox / before events: **${ratio(withOutbox, without)}**; with an endpoint listening (the event's delivery row, and its delivery made while the load runs: ${out.delivered} delivered) / before events: **${ratio(withEp, without)}** (there the deliveries themselves — signing, HTTP, recording — share the server's CPU).${out.base ? '' : ' (No baseline: not a git checkout, so "before events" was not measured.)'}
- ${cpuNote}

**Delivery throughput**: ${d.got} of ${d.n} events delivered to a receiver on loopback in ${Math.round(d.spanMs)} ms from the first arrival to the last: **${Math.round(d.perSecond)} deliveries/s** from one replica (WEBHOOK_CONCURRENCY 16), each signed (a sample verified with standardwebhooks: ${d.verified ? 'yes' : 'NO'}), leased, sent and recorded (attempt row, delivery row, endpoint health) in its own transaction.
`;
  console.log(`\n${text}`);
  if (o.write) writeSection(join(REPO, 'BENCHMARKS.md'), 'webhooks', text);
}
