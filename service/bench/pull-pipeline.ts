// `npm run bench -- --pulls` (or `node bench/pull-pipeline.ts`): the pull path against the local
// network, at 5 s and 1 s ledgers. Measures, per confirmed pull, the RPC calls by method (the
// devnet counts them), the time from request to 200, and how long after its ledger closed the
// service saw the confirmation (a watcher records the wall time each ledger appears); then 200
// due subscriptions across 20 merchants pulled at once. Prints markdown and writes it to
// bench/results/pull-pipeline.md and to the `pulls` section of BENCHMARKS.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startPostgres } from '../test/support/pg-server.ts';
import { writeSection } from './report.ts';
import { channelComparison } from './channels.ts';
import { startDevnet, type Devnet } from '../test/support/devnet.ts';
import { http, startServiceProcess } from '../test/support/service-process.ts';
import { newFundedAccount, setUpSubscriber } from '../test/support/subscriber.ts';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const BENCHMARKS_MD = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
const log = (s: string) => console.log(`[pulls] ${s}`);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const median = (xs: number[]) => pct(xs, 50);

/** Wall time (ms) at which each ledger sequence was first seen, polled every 5 ms. */
function watchLedgers(devnet: Devnet) {
  const seen = new Map<number, number>();
  let on = true;
  const loop = async () => {
    while (on) {
      const { sequence } = await devnet.control<{ sequence: number }>('/state');
      if (!seen.has(sequence)) seen.set(sequence, Date.now());
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const done = loop();
  return {
    seen,
    stop: async () => {
      on = false;
      await done;
    },
  };
}

async function subscriptions(api: string, devnet: Devnet, merchants: number, perMerchant: number) {
  const out: { id: string; secret: string }[] = [];
  await Promise.all(
    Array.from({ length: merchants }, async () => {
      const merchant = await newFundedAccount(devnet);
      const m = await http(api, 'POST', '/merchants', { name: 'Bench', wallet_address: merchant.publicKey() });
      const p = await http(api, 'POST', '/plans', {
        merchant_id: m.body.merchant.id,
        name: 'B',
        token_amount: 1000,
        interval_seconds: 86400,
      });
      for (let i = 0; i < perMerchant; i++) {
        const user = await setUpSubscriber(devnet, merchant.publicKey(), {
          amountPerInterval: 1000n,
          intervalSeconds: 86400n,
        });
        const s = await http(api, 'POST', '/subscriptions', {
          plan_id: p.body.plan.id,
          customer_wallet_address: user.publicKey(),
        });
        out.push({ id: s.body.subscription.id, secret: merchant.secret() });
      }
    }),
  );
  return out;
}

async function rpcCalls(devnet: Devnet) {
  return devnet.control<Record<string, number>>('/rpc-calls');
}

function diff(after: Record<string, number>, before: Record<string, number>) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => (v as number) > 0),
  );
}

async function scenario(ledgerMs: number, pgUrl: string) {
  const devnet = await startDevnet({ ledgerMs });
  const service = await startServiceProcess({
    DATABASE_URL: pgUrl,
    SOROBAN_RPC_URL: devnet.rpcUrl,
    STELLAR_NETWORK_PASSPHRASE: devnet.passphrase,
    CONTRACT_ID: devnet.contracts.vault,
    TX_POLL_TIMEOUT_MS: '60000',
    RECONCILE_INTERVAL_MS: '0',
  });
  try {
    // 1. One pull at a time, all of one merchant (its sequence number is fetched once, then cached).
    const n = quick ? 5 : ledgerMs >= 5000 ? 10 : 20;
    const subs = await subscriptions(service.url, devnet, 1, n + 3);
    // Warm-up: the service learns the ledger period and the merchant's sequence on its first pulls.
    for (const s of subs.splice(0, 3))
      await http(service.url, 'POST', '/trigger-pull', { subscription_id: s.id, merchant_secret: s.secret });
    const watcher = watchLedgers(devnet);
    const latencies: number[] = [];
    const delays: number[] = [];
    const before = await rpcCalls(devnet);
    for (const s of subs) {
      const t0 = Date.now();
      const r = await http(service.url, 'POST', '/trigger-pull', { subscription_id: s.id, merchant_secret: s.secret });
      const t1 = Date.now();
      if (r.status !== 200) throw new Error(`pull answered ${r.status}: ${JSON.stringify(r.body)}`);
      latencies.push(t1 - t0);
      const history = await http(service.url, 'GET', `/subscriptions/${s.id}/pulls`);
      const closedAt = watcher.seen.get(history.body.pulls[0].ledger);
      if (closedAt !== undefined) delays.push(t1 - closedAt);
    }
    const calls = diff(await rpcCalls(devnet), before);
    await watcher.stop();
    const perPull = Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, (v as number) / subs.length]));
    const total = Object.values(perPull).reduce((a, b) => a + b, 0);

    // 2. 200 due subscriptions across 20 merchants at once.
    const many = await subscriptions(service.url, devnet, 20, quick ? 3 : 10);
    const t0 = Date.now();
    const answers = await Promise.all(
      many.map((s) => http(service.url, 'POST', '/trigger-pull', { subscription_id: s.id, merchant_secret: s.secret })),
    );
    const elapsed = Date.now() - t0;
    const ledgers = new Map<number, number>();
    for (const s of many) {
      const h = await http(service.url, 'GET', `/subscriptions/${s.id}/pulls`);
      const l = h.body.pulls[0]?.ledger;
      if (l) ledgers.set(l, (ledgers.get(l) ?? 0) + 1);
    }
    const statuses: Record<number, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    return {
      ledgerMs,
      n: subs.length,
      perPull,
      total,
      latencies,
      delays,
      many: many.length,
      elapsed,
      statuses,
      ledgers,
    };
  } finally {
    await service.kill();
    await devnet.stop();
  }
}

const pg = await startPostgres();
try {
  // Issue 14: channel accounts next to merchant-as-source, in the same run, at 5 s ledgers.
  log('channel accounts vs merchant-as-source at 5 s ledgers…');
  const channelsMd = await channelComparison(pg.url, quick);
  console.log(channelsMd);
  writeSection(
    BENCHMARKS_MD,
    'pulls-channels',
    [
      '## Channel accounts vs merchant-as-source (local Soroban network, 5 s ledgers)',
      '',
      `Command: \`${quick ? 'BENCH_QUICK=1 ' : ''}${process.env.BENCH_ONLY === 'channels' ? 'BENCH_ONLY=channels ' : ''}npm run bench:pulls\` (from the repository root) — ${new Date().toISOString()}; one devnet on its own`,
      '5 s timer, one service process per mode on its own PostgreSQL database (same server), 100 channels created with',
      '`billing channels create --count 100 --devnet-control …`, no fee source (channels pay their fees). For each batch, k due',
      'subscriptions of ONE merchant are pulled at once through /trigger-pull with merchant_secret, after a 3-pull warm-up.',
      'RPC calls are every JSON-RPC call the devnet received during the batch divided by k (background getFeeStats included).',
      'Merchant-as-source is one pull per ledger by construction (one queued transaction per source account), so k = 100 is',
      'not run for it (it would take 100 ledgers, over 8 minutes).',
      '',
      channelsMd,
    ].join('\n'),
  );
  if (process.env.BENCH_ONLY === 'channels') {
    pg.stop();
    process.exit(0);
  }
  const rows: string[] = [];
  const concurrency: string[] = [];
  for (const ledgerMs of [5000, 1000]) {
    log(`ledgers every ${ledgerMs} ms…`);
    const r = await scenario(ledgerMs, pg.url);
    const methods = Object.entries(r.perPull)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(', ');
    rows.push(
      `| ${ledgerMs / 1000} s | ${r.n} | **${r.total.toFixed(2)}** | ${methods} | ${median(r.latencies)} (${Math.min(...r.latencies)}–${Math.max(...r.latencies)}) | ${median(r.delays)} / ${pct(r.delays, 95)} |`,
    );
    const perLedger = [...r.ledgers.values()];
    concurrency.push(
      `| ${ledgerMs / 1000} s | ${r.many} | ${JSON.stringify(r.statuses)} | ${(r.elapsed / 1000).toFixed(1)} s | ${r.ledgers.size} ledgers, ${Math.min(...perLedger)}–${Math.max(...perLedger)} pulls per ledger |`,
    );
    log(rows.at(-1)!);
    log(concurrency.at(-1)!);
  }
  const md = [
    '| ledger period | pulls | RPC calls per confirmed pull | by method | request → 200, ms median (min–max) | confirmation seen after ledger close, ms median / p95 |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    '| ledger period | pulls at once (20 merchants) | answers | total time | spread |',
    '|---|---|---|---|---|',
    ...concurrency,
    '',
  ].join('\n');
  console.log(md);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(`${RESULTS}pull-pipeline.md`, md);
  const command = `${quick ? 'BENCH_QUICK=1 ' : ''}npm run bench:pulls`;
  writeSection(
    BENCHMARKS_MD,
    'pulls',
    [
      '## Pull pipeline (local Soroban network)',
      '',
      `Command: \`${command}\` (from the repository root) — ${new Date().toISOString()}; PostgreSQL server under /tmp, the devnet`,
      'CLI and the service as separate processes, no CPU pinning. Sequential pulls: one merchant, a warm-up of 3 pulls, then one',
      'pull at a time; the devnet counts every JSON-RPC call; a watcher polls the devnet every 5 ms to record when each ledger',
      'appears, and "seen after close" is the 200 answer\'s arrival minus that time (an upper bound: it includes the watcher\'s',
      'own 0–5 ms and the HTTP answer). Then 200 due subscriptions across 20 merchants are pulled at once.',
      '',
      md,
    ].join('\n'),
  );
} finally {
  pg.stop();
}
