#!/usr/bin/env node
// `npm run soak -- --minutes N --seed S [--profile 5s|1s|ci]`: a throw-away PostgreSQL, the local
// network, 2–3 service replicas behind a round-robin proxy, merchants' drivers calling
// /trigger-pull (early, late, retrying) beside the collector, and faults from a seeded schedule.
// Then a drain (faults off, everything resolved) and the independent checker. Exit 1 on any
// violation, with the seed to replay. `--channels N` adds N channel accounts (`billing channels
// create`, while the replicas run) so pulls go through channels instead of the merchant's account.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { check, type DriverAnswer, INVARIANTS } from './checker.ts';
import { type FaultKind, FAULT_RATES, schedule } from './faults.ts';
import { freePort, Replica, startDevnet, startPostgres } from './processes.ts';
import { FrontProxy, RpcProxy } from './proxies.ts';
import { reconcile } from './reconcile.ts';
import { Rng } from './rng.ts';
import { api, buildWorld, Chain, empty, revoke, type SubRec, ADMIN_KEY } from './world.ts';

const PROFILES = {
  '5s': { ledgerMs: 5000, merchants: 50, subscriptions: 1000, replicas: 3, minutes: 30 },
  '1s': { ledgerMs: 1000, merchants: 50, subscriptions: 1000, replicas: 3, minutes: 30 },
  ci: { ledgerMs: 1000, merchants: 10, subscriptions: 100, replicas: 2, minutes: 2 },
} as const;

const { values: a } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seed: { type: 'string' },
    profile: { type: 'string', default: '5s' },
    subscriptions: { type: 'string' },
    merchants: { type: 'string' },
    replicas: { type: 'string' },
    'drain-minutes': { type: 'string' },
    channels: { type: 'string', default: '0' },
    // Run the replicas from another copy of service/ (a deliberately broken build, to test the checker).
    'service-dir': { type: 'string' },
  },
});
const profileName = a.profile as keyof typeof PROFILES;
const profile = PROFILES[profileName];
if (!profile) throw new Error(`--profile must be one of ${Object.keys(PROFILES).join(', ')}`);
const seed = a.seed !== undefined ? Number(a.seed) : profileName === 'ci' ? 42 : randomBytes(4).readUInt32BE(0);
const minutes = Number(a.minutes ?? profile.minutes);
const nSubs = Number(a.subscriptions ?? profile.subscriptions);
const nMerchants = Number(a.merchants ?? profile.merchants);
const nReplicas = Number(a.replicas ?? profile.replicas);
const drainMs = Number(a['drain-minutes'] ?? 4) * 60_000;
const nChannels = Number(a.channels);
const ledgerS = profile.ledgerMs / 1000;
// As its own source, one merchant lands about one pull per ledger (one sequence number); through
// channels (shared by all merchants), about its share of them. Intervals leave room for every
// subscriber of a merchant two to four times over.
const perMerchant = Math.ceil(nSubs / nMerchants);
const perLedger = Math.max(1, Math.min(perMerchant, Math.floor(nChannels / nMerchants)));
const intervalRange: [number, number] = [
  Math.max(20, Math.ceil((perMerchant / perLedger) * ledgerS * 2.5)),
  Math.max(40, Math.ceil((perMerchant / perLedger) * ledgerS * 5)),
];

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const log = (msg: string) => console.log(`[soak +${((Date.now() - t0) / 1000).toFixed(0)}s] ${msg}`);

const cleanups: (() => void | Promise<void>)[] = [];
async function cleanup() {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

async function main(): Promise<number> {
  const rng = new Rng(seed);
  log(
    `seed ${seed}, profile ${profileName} (${profile.ledgerMs} ms ledgers), ${minutes} min of faults, ` +
      `${nSubs} subscriptions / ${nMerchants} merchants, ${nReplicas} replicas, ${nChannels} channels, ` +
      `intervals ${intervalRange[0]}–${intervalRange[1]} s`,
  );
  const logDir = mkdtempSync(join(tmpdir(), 'soak-logs-'));
  const pgServer = await startPostgres();
  cleanups.push(() => pgServer.stop());
  const devnet = await startDevnet(profile.ledgerMs);
  cleanups.push(() => devnet.stop());
  const rpcProxy = new RpcProxy(devnet.rpcUrl);
  await rpcProxy.listen();
  cleanups.push(() => rpcProxy.close());

  const env = (over: Record<string, string> = {}) => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: pgServer.url,
    DB_POOL_SIZE: '6',
    DB_CONNECT_TIMEOUT_MS: '2000',
    SOROBAN_RPC_URL: rpcProxy.url,
    STELLAR_NETWORK_PASSPHRASE: devnet.passphrase,
    CONTRACT_ID: devnet.contracts.vault,
    ADMIN_API_KEY: ADMIN_KEY,
    SIGNING_KEY_ENCRYPTION_KEY: kek,
    CURSOR_SECRET: `soak-cursor-${'c'.repeat(32)}`,
    COLLECTOR_ENABLED: 'true',
    COLLECTOR_INTERVAL_MS: '500',
    COLLECTOR_CONCURRENCY: '8',
    RECONCILE_INTERVAL_MS: '2000',
    TX_POLL_TIMEOUT_MS: String(Math.max(6000, profile.ledgerMs * 3)),
    TX_POLL_INTERVAL_MS: '300',
    RPC_TIMEOUT_MS: '3000',
    MERCHANT_QUEUE_WAIT_MS: '30000',
    SHUTDOWN_TIMEOUT_MS: '15000',
    WARNING_LEAD_SECONDS: '0',
    ...over,
  });
  const kek = randomBytes(32).toString('base64');
  const replicas: Replica[] = [];
  for (let i = 0; i < nReplicas; i++)
    replicas.push(new Replica(i, await freePort(), env(), join(logDir, `replica-${i}.log`), a['service-dir']));
  // The first replica migrates alone, then the others join.
  await replicas[0]!.start();
  await Promise.all(replicas.slice(1).map((r) => r.start()));
  cleanups.push(() => Promise.all(replicas.map((r) => r.kill('SIGKILL'))).then(() => {}));
  const front = new FrontProxy(replicas);
  await front.listen();
  cleanups.push(() => front.close());
  if (nChannels > 0) {
    // As an operator grows the pool: the CLI against the replicas' database, replicas running.
    const made = spawnSync(
      process.execPath,
      [
        join(a['service-dir'] ?? join(ROOT, 'service'), 'src/cli/main.ts'),
        'channels',
        'create',
        '--count',
        String(nChannels),
        '--devnet-control',
        devnet.controlUrl,
      ],
      { encoding: 'utf8', env: { ...process.env, ...env({ SOROBAN_RPC_URL: devnet.rpcUrl, LOG_LEVEL: 'warn' }) } },
    );
    if (made.status !== 0) throw new Error(`billing channels create exited ${made.status}: ${made.stderr}`);
    log(`${nChannels} channel accounts created`);
  }
  log(`PostgreSQL ${pgServer.url}, devnet ${devnet.rpcUrl}, front ${front.url}, logs ${logDir}`);

  const chain = new Chain(devnet);
  const horizon = minutes * 60 + drainMs / 1000 + 600;
  const world = await buildWorld(front.url, chain, rng.fork('world'), {
    merchants: nMerchants,
    subscriptions: nSubs,
    intervalRange,
    horizonSeconds: horizon,
  });
  log(
    `set up ${world.subs.length} subscriptions (${world.merchants.filter((m) => m.autocollect).length} merchants collected automatically)`,
  );
  const startLedger = (await devnet.control<{ sequence: number }>('/state')).sequence;
  const startedAt = new Date();

  // ── Drivers ──
  const answers: DriverAnswer[] = [];
  const ops: Record<string, number> = {};
  const bump = (k: string) => (ops[k] = (ops[k] ?? 0) + 1);
  const drng = rng.fork('drivers');
  const nextTry = new Map<string, number>(world.subs.map((s) => [s.id, Date.now() + drng.between(0, 5000)]));
  let driving = true;
  let inflight = 0;
  const MAX_INFLIGHT = profileName === 'ci' ? 8 : 24;
  async function drive(s: SubRec) {
    const at = Date.now();
    let r: Awaited<ReturnType<typeof api>> | undefined;
    try {
      r = await api(
        front.url,
        'POST',
        '/trigger-pull',
        { subscription_id: s.id, merchant_secret: s.merchant.key.secret() },
        '',
        20_000,
      );
    } catch {
      bump('driver timeout (retried)');
      nextTry.set(s.id, Date.now() + drng.between(1000, 4000));
      return;
    }
    if (r.proxy) {
      bump('no answer (replica gone, retried)');
      nextTry.set(s.id, Date.now() + drng.between(1000, 4000));
      return;
    }
    const code = r.body.code as string | undefined;
    answers.push({ subscriptionId: s.id, status: r.status, txHash: r.body.txHash, code, at });
    const what = code ?? (r.status >= 500 && r.body.error ? `"${String(r.body.error).slice(0, 40)}"` : '');
    bump(`HTTP ${r.status}${what ? ` ${what}` : ''}`);
    const iv = s.intervalSeconds * 1000;
    if (r.status === 200) {
      // Early (refused too_early) about one time in five, else on time to late.
      nextTry.set(s.id, Date.now() + iv * drng.between(0.7, 1.4) + (s.merchant.autocollect ? iv * 0.3 : 0));
    } else if (r.status === 202) nextTry.set(s.id, Date.now() + drng.between(2000, 8000));
    else if (code === 'too_early' && r.body.next_billing_date)
      nextTry.set(s.id, new Date(r.body.next_billing_date).getTime() + drng.between(0, iv * 0.3) + 200);
    else nextTry.set(s.id, Date.now() + drng.between(3000, 15_000));
  }
  const driverLoop = (async () => {
    while (driving) {
      const now = Date.now();
      for (const s of world.subs) {
        if (inflight >= MAX_INFLIGHT) break;
        if ((nextTry.get(s.id) ?? 0) > now) continue;
        nextTry.set(s.id, Number.POSITIVE_INFINITY);
        inflight++;
        void drive(s).finally(() => inflight--);
      }
      await sleep(200);
    }
    while (inflight > 0) await sleep(100);
  })();

  // ── Faults ──
  const plan = schedule(rng.fork('faults'), minutes * 60_000);
  const injected: Record<string, number> = {};
  const frng = rng.fork('fault-params');
  const background: Promise<unknown>[] = [];
  // As a supervisor would: a replica that cannot start (PostgreSQL down at that moment: the
  // service refuses to start without its database) is started again a little later.
  const restartLater = (r: Replica, ms: number) =>
    background.push(
      (async () => {
        await sleep(ms);
        for (let i = 1; ; i++) {
          try {
            return await r.start();
          } catch (e) {
            if (i >= 10) return log(`replica ${r.index} restart failed ${i} times: ${e}`);
            await sleep(2000);
          }
        }
      })(),
    );
  async function inject(kind: FaultKind): Promise<boolean> {
    switch (kind) {
      case 'rpc-connection-reset':
        rpcProxy.resetConnections(frng.int(1, 3));
        return true;
      case 'rpc-slow-answer':
        rpcProxy.delay(frng.int(2, 5), frng.int(1500, 5000));
        return true;
      case 'rpc-unavailable':
        rpcProxy.unavailableFor(frng.int(5000, 20_000));
        return true;
      case 'send-answer-lost':
        rpcProxy.loseSendAnswer(frng.int(1, 2));
        return true;
      case 'send-try-again-later':
        await devnet.control('/faults', { kind: 'send', status: 'TRY_AGAIN_LATER', count: frng.int(1, 3) });
        return true;
      case 'send-error':
        await devnet.control('/faults', { kind: 'send', status: 'ERROR', count: frng.int(1, 2) });
        return true;
      case 'tx-dropped':
        await devnet.control('/faults', { kind: 'drop' });
        return true;
      case 'tx-delayed':
        await devnet.control('/faults', { kind: 'delay', ledgers: frng.int(1, 4), count: frng.int(1, 2) });
        return true;
      case 'tx-failed':
        await devnet.control('/faults', { kind: 'fail-next' });
        return true;
      case 'replica-sigkill': {
        const up = replicas.filter((r) => r.up);
        if (up.length < 2) return false;
        const r = frng.pick(up);
        await r.kill('SIGKILL');
        restartLater(r, frng.int(1000, 5000));
        return true;
      }
      case 'replica-sigterm-polling': {
        const up = replicas.filter((r) => r.up);
        if (up.length < 2) return false;
        const busy = up.filter((r) => (front.inflight.get(r.index) ?? 0) > 0);
        const r = frng.pick(busy.length ? busy : up);
        background.push(r.kill('SIGTERM').then(() => restartLater(r, frng.int(500, 3000))));
        return true;
      }
      case 'postgres-restart':
        await pgServer.restart(frng.int(1000, 4000));
        return true;
      case 'ledger-pause': {
        await devnet.control('/pause', {});
        background.push(sleep(frng.int(5000, 15_000)).then(() => devnet.control('/resume', {})));
        return true;
      }
      case 'subscriber-revokes':
      case 'subscriber-empties': {
        const candidates = world.subs.filter((s) => !s.impaired);
        if (!candidates.length) return false;
        const s = frng.pick(candidates);
        s.impaired = kind;
        background.push(
          (kind === 'subscriber-revokes' ? revoke(chain, s) : empty(chain, s)).catch((e) =>
            log(`${kind} of ${s.id}: ${e instanceof Error ? e.message : e}`),
          ),
        );
        return true;
      }
    }
  }
  log(`fault phase: ${plan.length} faults scheduled over ${minutes} min`);
  const faultStart = Date.now();
  for (const f of plan) {
    await sleep(Math.max(0, faultStart + f.atMs - Date.now()));
    try {
      if (await inject(f.kind)) injected[f.kind] = (injected[f.kind] ?? 0) + 1;
    } catch (e) {
      log(`fault ${f.kind} failed to inject: ${e instanceof Error ? e.message : e}`);
    }
  }
  await sleep(Math.max(0, faultStart + minutes * 60_000 - Date.now()));

  // ── Drain: faults off, everyone up, the drivers and the collector catch up ──
  log('faults stopped; draining');
  rpcProxy.enabled = false;
  await devnet.control('/faults/clear', {});
  await Promise.all(background);
  await devnet.control('/resume', {});
  for (const r of replicas) if (!r.up) await r.start().catch((e) => log(`restart: ${e}`));
  const faultsEndedAt = Date.now();
  const db = new pg.Pool({ connectionString: pgServer.url, max: 2 });
  const lagging = async () => {
    const { rows } = await db.query<{
      id: string;
      next_billing_date: Date;
      interval_seconds: number;
      pending: boolean;
      collected: boolean;
    }>(
      `SELECT s.id, s.next_billing_date, p.interval_seconds,
              EXISTS (SELECT 1 FROM pulls x WHERE x.subscription_id = s.id AND x.status = 'pending'
                             AND x.created_at < now() - interval '60 seconds') AS pending,
              EXISTS (SELECT 1 FROM pulls x WHERE x.subscription_id = s.id AND x.status = 'confirmed') AS collected
         FROM subscriptions s JOIN plans p ON p.id = s.plan_id`,
    );
    const impaired = new Set(world.subs.filter((s) => s.impaired).map((s) => s.id));
    return rows.filter(
      (r) =>
        r.pending ||
        (!impaired.has(r.id) &&
          (!r.collected || r.next_billing_date.getTime() + (2 * r.interval_seconds + 60) * 1000 < faultsEndedAt)),
    ).length;
  };
  for (let n = await lagging(); n > 0 && Date.now() - faultsEndedAt < drainMs; n = await lagging()) await sleep(2000);
  driving = false;
  await driverLoop;
  // Stop every replica (gracefully: requests in flight finish), then one without the collector
  // resolves whatever is still pending, so the record stops moving before it is read.
  await Promise.all(replicas.map((r) => r.kill('SIGTERM')));
  const last = new Replica(
    99,
    await freePort(),
    env({ COLLECTOR_ENABLED: 'false', RECONCILE_INTERVAL_MS: '1000' }),
    join(logDir, 'final.log'),
    a['service-dir'],
  );
  await last.start();
  for (let i = 0; i < 120; i++) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM pulls WHERE status = 'pending'`);
    if (rows[0].n === 0) break;
    await sleep(1000);
  }
  await last.kill('SIGTERM');
  await db.end();
  log('drained; checking');

  const result = await check({
    databaseUrl: pgServer.url,
    rpcUrl: devnet.rpcUrl,
    controlUrl: devnet.controlUrl,
    vault: devnet.contracts.vault,
    answers,
    subscriptions: world.subs.map((s) => ({ id: s.id, impaired: s.impaired })),
    faultsEndedAt,
  });
  // The books, as the operator command reads them: chain through RPC, the database by SQL.
  const books = await reconcile({
    databaseUrl: pgServer.url,
    rpcUrl: devnet.rpcUrl,
    vault: devnet.contracts.vault,
    since: startedAt,
    startLedger,
  });
  for (const m of books.mismatches) result.violations.push({ invariant: 'books', detail: m });
  // And once as the operator runs it: `billing reconcile` from the service's CLI.
  const cli = spawnSync(
    process.execPath,
    [join(ROOT, 'service/src/cli/main.ts'), 'reconcile', '--since', startedAt.toISOString()],
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: pgServer.url,
        SOROBAN_RPC_URL: devnet.rpcUrl,
        CONTRACT_ID: devnet.contracts.vault,
      },
    },
  );
  const cliOut = `${cli.stdout}${cli.stderr}`.trim().split('\n');
  console.log(`\n$ billing reconcile --since ${startedAt.toISOString()}   (exit ${cli.status})`);
  for (const line of [
    ...cliOut.slice(0, 6),
    ...(cliOut.length > 9 ? ['…'] : []),
    ...cliOut.slice(Math.max(6, cliOut.length - 3)),
  ])
    console.log(line);
  if (cli.status !== 0)
    result.violations.push({ invariant: 'books', detail: `billing reconcile exited ${cli.status}` });

  // ── Report ──
  const rows: [string, string | number][] = [];
  rows.push(['seed', seed], ['profile', `${profileName} (${profile.ledgerMs} ms ledgers)`]);
  rows.push(['fault phase', `${minutes} min`], ['total run', `${((Date.now() - t0) / 60_000).toFixed(1)} min`]);
  rows.push(['subscriptions / merchants / replicas', `${nSubs} / ${nMerchants} / ${nReplicas}`]);
  const table = (title: string, entries: [string, string | number][]) => {
    const w = Math.max(...entries.map(([k]) => k.length), title.length);
    console.log(`\n${title}`);
    console.log(`${'-'.repeat(w)}  ${'-'.repeat(10)}`);
    for (const [k, val] of entries) console.log(`${k.padEnd(w)}  ${val}`);
  };
  table('run', rows);
  table(
    'faults injected',
    (Object.keys(FAULT_RATES) as FaultKind[]).map((k) => [k, injected[k] ?? 0]),
  );
  table('RPC proxy hits', Object.entries(rpcProxy.hits));
  table('operations (driver answers)', Object.entries(ops).sort());
  table('outcomes', [...Object.entries(result.counts), ['books: confirmed pulls matched to transfers', books.matched]]);
  const byInv = new Map<string, number>();
  for (const x of result.violations) byInv.set(x.invariant, (byInv.get(x.invariant) ?? 0) + 1);
  table(
    'violations',
    [...Object.keys(INVARIANTS), 'books'].map((k) => [k, byInv.get(k) ?? 0]),
  );
  for (const x of result.violations.slice(0, 40)) console.log(`VIOLATION ${x.invariant}: ${x.detail}`);
  if (result.violations.length > 40) console.log(`… and ${result.violations.length - 40} more`);
  if (result.violations.length) {
    console.log(
      `\nFAIL: ${result.violations.length} violation(s). Replay: npm run soak -- --profile ${profileName} --minutes ${minutes} --seed ${seed}`,
    );
    return 1;
  }
  console.log(`\nOK: 0 violations (seed ${seed})`);
  return 0;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (err) => {
    console.error(err);
    console.error(`soak aborted (seed ${seed})`);
    await cleanup();
    process.exit(2);
  });
