// `npm run bench:collector` (node bench/collector.ts): the automatic collector against the local
// network at 5 s ledgers. N due subscriptions across M merchants (each with a stored signing key)
// are collected with nobody calling: by one service instance, then (the next cycle, after moving
// ledger time with CLOCK=ledger) by two instances on the same PostgreSQL. Reports cycles collected
// per minute, RPC calls per collected cycle, and the bound of one pull per merchant per ledger
// (the merchant is the transaction source until channel accounts land). Options: --subs N
// (default 1000), --merchants M (default 100). Writes the `collector` section of BENCHMARKS.md.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Address, Keypair, nativeToScVal } from '@stellar/stellar-sdk';
import { startPostgres } from '../test/support/pg-server.ts';
import { startDevnet, type Devnet } from '../test/support/devnet.ts';
import { startServiceProcess, type ServiceProcess } from '../test/support/service-process.ts';
import { sendInvoke } from '../test/support/subscriber.ts';
import { writeSection } from './report.ts';

const BENCHMARKS_MD = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const { values } = parseArgs({
  options: { subs: { type: 'string', default: '1000' }, merchants: { type: 'string', default: '100' } },
});
const SUBS = Number(values.subs);
const MERCHANTS = Number(values.merchants);
const LEDGER_MS = 5000;
const DAY = 86_400;
const log = (s: string) => console.log(`[collector] ${s}`);
const ADMIN = `bench-operator-${'k'.repeat(32)}`;

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, any>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Sends every call at once (other sources share a ledger) and waits until each is included. */
async function inOneGo(
  devnet: Devnet,
  calls: { signer: Keypair; contract: string; fn: string; args: ReturnType<typeof nativeToScVal>[] }[],
) {
  const hashes = await Promise.all(
    calls.map((c) => sendInvoke(devnet, c.signer, c.contract, c.fn, c.args).then((r) => r.hash)),
  );
  const want = new Set(hashes);
  for (;;) {
    const done = (await devnet.transactions()).filter((tx) => want.has(tx.hash) && tx.status !== 'queued');
    if (done.length === want.size) {
      const bad = done.filter((tx) => tx.status !== 'success');
      if (bad.length) throw new Error(`${bad.length} set-up transactions failed: ${bad[0]!.status}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function setUp(devnet: Devnet, api: string) {
  const token = devnet.contracts.token;
  const vault = devnet.contracts.vault;
  const merchants = Array.from({ length: MERCHANTS }, () => Keypair.random());
  const users = Array.from({ length: SUBS }, () => Keypair.random());
  for (const k of [...merchants, ...users]) await devnet.control('/fund', { address: k.publicKey() });
  for (const u of users) await devnet.control('/mint', { to: u.publicKey(), amount: '100000000' });
  const { sequence } = await devnet.control<{ sequence: number }>('/state');
  const a = (x: string) => new Address(x).toScVal();
  log(`set-up: approve and create_vault for ${SUBS} subscribers`);
  await inOneGo(
    devnet,
    users.map((u) => ({
      signer: u,
      contract: token,
      fn: 'approve',
      args: [
        a(u.publicKey()),
        a(vault),
        nativeToScVal(100000000n, { type: 'i128' }),
        nativeToScVal(sequence + 100_000, { type: 'u32' }),
      ],
    })),
  );
  await inOneGo(
    devnet,
    users.map((u, i) => ({
      signer: u,
      contract: vault,
      fn: 'create_vault',
      args: [
        a(u.publicKey()),
        a(merchants[i % MERCHANTS]!.publicKey()),
        a(token),
        nativeToScVal(1000n, { type: 'i128' }),
        nativeToScVal(BigInt(DAY), { type: 'u64' }),
      ],
    })),
  );
  const plans: string[] = [];
  for (const m of merchants) {
    const made = await call(api, 'POST', '/merchants', { name: 'Bench merchant', wallet_address: m.publicKey() });
    await call(api, 'PUT', `/merchants/${made.merchant.id}/signing-key`, { secret: m.secret() });
    plans.push(
      (
        await call(api, 'POST', '/plans', {
          merchant_id: made.merchant.id,
          name: 'Daily',
          token_amount: 1000,
          interval_seconds: DAY,
        })
      ).plan.id,
    );
  }
  for (let i = 0; i < SUBS; i++)
    await call(api, 'POST', '/subscriptions', {
      plan_id: plans[i % MERCHANTS],
      customer_wallet_address: users[i]!.publicKey(),
    });
}

async function rpcCalls(devnet: Devnet): Promise<number> {
  const counts = await devnet.control<Record<string, number>>('/rpc-calls');
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

async function measure(label: string, devnet: Devnet, db: pg.Client, services: ServiceProcess[], already: number) {
  const calls0 = await rpcCalls(devnet);
  const ledger0 = (await devnet.control<{ sequence: number }>('/state')).sequence;
  const t0 = Date.now();
  const confirmed = async () =>
    Number((await db.query(`SELECT count(*) AS n FROM pulls WHERE status = 'confirmed'`)).rows[0].n) - already;
  while ((await confirmed()) < SUBS) {
    if (Date.now() - t0 > 30 * 60_000) throw new Error(`${label}: only ${await confirmed()} of ${SUBS} after 30 min`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (Date.now() - t0) / 1000;
  const ledgers = (await devnet.control<{ sequence: number }>('/state')).sequence - ledger0;
  const calls = (await rpcCalls(devnet)) - calls0;
  void services;
  return { label, seconds, perMinute: (SUBS / seconds) * 60, ledgers, callsPerCycle: calls / SUBS };
}

async function main() {
  const pgServer = await startPostgres();
  const devnet = await startDevnet({ ledgerMs: LEDGER_MS, extraArgs: ['--accounts', '1'] });
  const env = {
    SOROBAN_RPC_URL: devnet.rpcUrl,
    STELLAR_NETWORK_PASSPHRASE: devnet.passphrase,
    CONTRACT_ID: devnet.contracts.vault,
    DATABASE_URL: pgServer.url,
    ADMIN_API_KEY: ADMIN,
    SIGNING_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CLOCK: 'ledger',
    COLLECTOR_INTERVAL_MS: '500',
    COLLECTOR_CONCURRENCY: '16',
    TX_POLL_INTERVAL_MS: '1000',
    LOG_LEVEL: 'warn',
    MERCHANT_QUEUE_WAIT_MS: '600000',
    RECONCILE_INTERVAL_MS: '5000',
  };
  const db = new pg.Client({ connectionString: pgServer.url });
  const procs: ServiceProcess[] = [];
  try {
    const setup = await startServiceProcess({ ...env, COLLECTOR_ENABLED: 'false' });
    procs.push(setup);
    await setUp(devnet, setup.url);
    await setup.kill();
    await db.connect();
    const one = await startServiceProcess({ ...env, COLLECTOR_ENABLED: 'true' });
    procs.push(one);
    log('one instance collecting');
    const single = await measure('one instance', devnet, db, [one], 0);
    await one.kill();
    // The next cycle: a day of ledger time later, for the vault and (CLOCK=ledger) the service.
    await devnet.control('/advance-time', { seconds: DAY + 60 });
    await devnet.control('/close-ledger', {});
    const two = [
      await startServiceProcess({ ...env, COLLECTOR_ENABLED: 'true' }),
      await startServiceProcess({ ...env, COLLECTOR_ENABLED: 'true' }),
    ];
    procs.push(...two);
    log('two instances collecting');
    const double = await measure('two instances', devnet, db, two, SUBS);
    const bound = (MERCHANTS / (LEDGER_MS / 1000)) * 60;
    const rows = [single, double].map(
      (r) =>
        `| ${r.label} | ${SUBS} / ${MERCHANTS} | ${r.seconds.toFixed(1)} s | ${r.perMinute.toFixed(0)} | ${r.ledgers} | ${r.callsPerCycle.toFixed(2)} |`,
    );
    const md = `Command: \`npm run bench:collector -- --subs ${SUBS} --merchants ${MERCHANTS}\` (local network at ${LEDGER_MS / 1000} s ledgers, PostgreSQL, service processes with CLOCK=ledger, COLLECTOR_CONCURRENCY=16). Run ${new Date().toISOString()}.

| collectors | due subscriptions / merchants | all collected in | cycles per minute | ledgers | RPC calls per collected cycle |
|---|---|---|---|---|---|
${rows.join('\n')}

The bound: with the merchant as transaction source the network queues one transaction per source
account per ledger, so at most ${MERCHANTS} pulls per ${LEDGER_MS / 1000} s ledger = ${bound.toFixed(0)} cycles per minute,
and at least ${Math.ceil(SUBS / MERCHANTS)} ledgers for ${SUBS} subscriptions — whatever the number of collectors (channel accounts lift it).
RPC calls per cycle include the pre-flight reads (vault, allowance, balance: 4 calls) and the pull.`;
    console.log(md);
    writeSection(BENCHMARKS_MD, 'collector', md);
  } finally {
    await db.end().catch(() => undefined);
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await devnet.stop();
    await pgServer.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
