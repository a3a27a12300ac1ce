// Part of `npm run bench:pulls` (issue 14): channel accounts next to merchant-as-source, in the
// same run, at 5 s ledgers. For k = 1, 10 and 100 due subscriptions of ONE merchant pulled at
// once: RPC calls per confirmed pull (the devnet counts every JSON-RPC call, the service's
// background calls included), pulls per ledger, request → 200, and the fee per pull. Merchant-as-
// source carries one pull per ledger, so its k = 100 would take 100 ledgers (over 8 minutes): it
// is run at k = 1 and 10 only. Setup closes ledgers fast (timer paused), measurement runs on the
// devnet's own 5 s timer.
import pg from 'pg';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDevnet, type Devnet } from '../test/support/devnet.ts';
import { http, startServiceProcess } from '../test/support/service-process.ts';
import { newFundedAccount, setUpSubscriber } from '../test/support/subscriber.ts';
import { KEK } from '../test/support/keys.ts';

const SERVICE_DIR = fileURLToPath(new URL('..', import.meta.url));
const log = (s: string) => console.log(`[pulls:channels] ${s}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function newDatabase(baseUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function closeFast(devnet: Devnet) {
  let on = true;
  const loop = (async () => {
    while (on) {
      await devnet.control('/close-ledger', {}).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return async () => {
    on = false;
    await loop;
  };
}

async function merchantSubs(api: string, devnet: Devnet, n: number) {
  const merchant = await newFundedAccount(devnet);
  const m = await http(api, 'POST', '/merchants', { name: 'Bench', wallet_address: merchant.publicKey() });
  const p = await http(api, 'POST', '/plans', {
    merchant_id: m.body.merchant.id,
    name: 'B',
    token_amount: 1000,
    interval_seconds: 86400,
  });
  const ids: string[] = [];
  for (let i = 0; i < n; i += 25) {
    const users = await Promise.all(
      Array.from({ length: Math.min(25, n - i) }, () =>
        setUpSubscriber(devnet, merchant.publicKey(), { amountPerInterval: 1000n, intervalSeconds: 86400n }),
      ),
    );
    for (const u of users) {
      const s = await http(api, 'POST', '/subscriptions', {
        plan_id: p.body.plan.id,
        customer_wallet_address: u.publicKey(),
      });
      ids.push(s.body.subscription.id);
    }
  }
  return { secret: merchant.secret(), ids };
}

export interface ChannelRow {
  mode: 'merchant-as-source' | 'channels';
  k: number;
  statuses: Record<number, number>;
  callsPerPull: number;
  byMethod: Record<string, number>;
  ledgers: number;
  perLedger: number;
  medianMs: number;
  maxMs: number;
  feePerPull: number;
}

async function runMode(
  mode: ChannelRow['mode'],
  devnet: Devnet,
  databaseUrl: string,
  sizes: number[],
): Promise<ChannelRow[]> {
  const env = {
    DATABASE_URL: databaseUrl,
    SOROBAN_RPC_URL: devnet.rpcUrl,
    STELLAR_NETWORK_PASSPHRASE: devnet.passphrase,
    CONTRACT_ID: devnet.contracts.vault,
    TX_POLL_TIMEOUT_MS: '60000',
    RECONCILE_INTERVAL_MS: '0',
    COLLECTOR_ENABLED: 'false',
    SIGNING_KEY_ENCRYPTION_KEY: KEK,
    MERCHANT_QUEUE_WAIT_MS: '600000',
  };
  const service = await startServiceProcess(env);
  try {
    await devnet.control('/pause', {});
    const stop = closeFast(devnet);
    if (mode === 'channels') {
      await promisify(execFile)(
        process.execPath,
        ['src/cli/main.ts', 'channels', 'create', '--count', '100', '--devnet-control', devnet.controlUrl],
        { cwd: SERVICE_DIR, env: { ...process.env, ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn' } },
      );
    }
    const warm = await merchantSubs(service.url, devnet, 3);
    const batches = [];
    for (const k of sizes) batches.push({ k, ...(await merchantSubs(service.url, devnet, k)) });
    await stop();
    await devnet.control('/resume', {});
    // Warm-up: the service learns the ledger period (and, for channels, their sequence numbers).
    for (const id of warm.ids)
      await http(service.url, 'POST', '/trigger-pull', { subscription_id: id, merchant_secret: warm.secret });
    const rows: ChannelRow[] = [];
    for (const b of batches) {
      const before = await devnet.control<Record<string, number>>('/rpc-calls');
      const times: number[] = [];
      const answers = await Promise.all(
        b.ids.map(async (id) => {
          const t0 = Date.now();
          const r = await http(service.url, 'POST', '/trigger-pull', {
            subscription_id: id,
            merchant_secret: b.secret,
          });
          times.push(Date.now() - t0);
          return r;
        }),
      );
      const after = await devnet.control<Record<string, number>>('/rpc-calls');
      const byMethod = Object.fromEntries(
        Object.entries(after)
          .map(([m, v]) => [m, (v - (before[m] ?? 0)) / b.k])
          .filter(([, v]) => (v as number) > 0),
      ) as Record<string, number>;
      const ledgers = new Set<number>();
      const fees: number[] = [];
      for (const id of b.ids) {
        const h = await http(service.url, 'GET', `/subscriptions/${id}/pulls`);
        const p = h.body.pulls.find((x: { status: string }) => x.status === 'confirmed');
        if (p) {
          ledgers.add(p.ledger);
          fees.push(Number(p.fee_charged));
        }
      }
      const statuses: Record<number, number> = {};
      for (const r of answers) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      const row: ChannelRow = {
        mode,
        k: b.k,
        statuses,
        callsPerPull: Object.values(byMethod).reduce((x, y) => x + y, 0),
        byMethod,
        ledgers: ledgers.size,
        perLedger: b.k / Math.max(1, ledgers.size),
        medianMs: median(times),
        maxMs: Math.max(...times),
        feePerPull: fees.length ? Math.round(fees.reduce((x, y) => x + y, 0) / fees.length) : 0,
      };
      log(JSON.stringify(row));
      rows.push(row);
    }
    return rows;
  } finally {
    await service.kill();
  }
}

export async function channelComparison(pgUrl: string, quick: boolean): Promise<string> {
  const devnet = await startDevnet({ ledgerMs: 5000 });
  try {
    const stamp = Date.now();
    const merchantDb = await newDatabase(pgUrl, `bench_merchant_${stamp}`);
    const channelDb = await newDatabase(pgUrl, `bench_channels_${stamp}`);
    log('merchant-as-source…');
    const a = await runMode('merchant-as-source', devnet, merchantDb, quick ? [1, 3] : [1, 10]);
    log('channels…');
    const b = await runMode('channels', devnet, channelDb, quick ? [1, 10] : [1, 10, 100]);
    const fmt = (r: ChannelRow) =>
      `| ${r.mode} | ${r.k} | ${JSON.stringify(r.statuses)} | ${r.ledgers} | **${r.perLedger.toFixed(1)}** | **${r.callsPerPull.toFixed(2)}** | ${Object.entries(
        r.byMethod,
      )
        .map(([m, v]) => `${m} ${v.toFixed(2)}`)
        .join(', ')} | ${r.medianMs} / ${r.maxMs} | ${r.feePerPull} |`;
    return [
      '| source | pulls at once (one merchant) | answers | ledgers used | pulls per ledger | RPC calls per confirmed pull | by method | request → 200 ms, median / max | fee per pull, stroops |',
      '|---|---|---|---|---|---|---|---|---|',
      ...[...a, ...b].map(fmt),
      '',
    ].join('\n');
  } finally {
    await devnet.stop();
  }
}
