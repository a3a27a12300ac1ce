// Channel accounts across replicas (issue 14), two service processes on one PostgreSQL database,
// ledgers closed by the test:
//  - a channel leased by a replica SIGKILLed while its transaction was in flight is taken again only
//    once the network's time has passed that transaction's time bound, and then serves another pull;
//  - `billing channels create` grows the pool while the replicas run (no restart);
//  - 10 subscriptions of one merchant pulled at once through two replicas: 10 distinct
//    transactions, all SUCCESS, no 5xx (before channels, one answered 500 txBadSeq).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closeLedgersEvery, until } from '../support/channels.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { accountsEnv, ADMIN_KEY } from '../support/keys.ts';
import { chainEnv } from '../support/pull-fixture.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.ts';
import { newFundedAccount, setUpSubscriber } from '../support/subscriber.ts';

const SERVICE_DIR = fileURLToPath(new URL('../..', import.meta.url));

let devnet: Devnet;
let databaseUrl: string;
let db: pg.Client;
const started: ServiceProcess[] = [];
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 0 });
  const admin = new pg.Client({ connectionString: inject('pgUrl') });
  await admin.connect();
  const name = `channels_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}, 60_000);
afterAll(async () => {
  await Promise.all(started.map((s) => s.kill('SIGKILL')));
  await db?.end();
  await devnet?.stop();
});

const env = () => ({
  ...chainEnv(devnet),
  ...accountsEnv(),
  DATABASE_URL: databaseUrl,
  RECONCILE_INTERVAL_MS: '500',
  TX_POLL_TIMEOUT_MS: '20000',
  RPC_TIMEOUT_MS: '5000',
  MERCHANT_QUEUE_WAIT_MS: '60000',
});

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** `billing channels create` as an operator runs it, against the replicas' database. */
async function createChannels(count: number) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      'src/cli/main.ts',
      'channels',
      'create',
      '--count',
      String(count),
      '--devnet-control',
      devnet.controlUrl,
      '--json',
    ],
    { cwd: SERVICE_DIR, env: { ...process.env, ...env(), NODE_ENV: 'test', LOG_LEVEL: 'warn' } },
  );
  return JSON.parse(stdout) as { channels: string[]; total: number };
}

/** A merchant with `n` due subscriptions, each subscriber with a vault. */
async function merchantWithSubscriptions(base: string, n: number) {
  const wallet = await newFundedAccount(devnet);
  const m = await call(base, 'POST', '/merchants', { name: 'Channelled Co', wallet_address: wallet.publicKey() });
  expect(m.status).toBe(201);
  const p = await call(base, 'POST', '/plans', {
    merchant_id: m.body.merchant.id,
    name: 'Hourly',
    token_amount: 1_000,
    interval_seconds: 3600,
  });
  const subs = await Promise.all(
    Array.from({ length: n }, async () => {
      const user = await setUpSubscriber(devnet, wallet.publicKey(), {
        amountPerInterval: 1_000n,
        intervalSeconds: 3600n,
      });
      const s = await call(base, 'POST', '/subscriptions', {
        plan_id: p.body.plan.id,
        customer_wallet_address: user.publicKey(),
      });
      expect(s.status).toBe(201);
      return s.body.subscription.id as string;
    }),
  );
  return { wallet, subs };
}

describe('channel accounts across two replicas on one PostgreSQL', () => {
  it('a SIGKILLed replica’s lease is recovered after the time bound; the pool grows without restart; 10 pulls at once through two replicas all succeed', async () => {
    const [a, b] = [await startServiceProcess(env()), await startServiceProcess(env())];
    started.push(a, b);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const [channel] = (await createChannels(1)).channels;

    let stop = closeLedgersEvery(devnet, 200);
    const { wallet, subs } = await merchantWithSubscriptions(a.url, 12);
    await stop();

    // 1. Replica A sends a pull through the only channel; the network loses it; A is SIGKILLed.
    await devnet.control('/faults', { kind: 'drop' });
    const lost = call(a.url, 'POST', '/trigger-pull', { subscription_id: subs[0], merchant_secret: wallet.secret() });
    lost.catch(() => undefined);
    await until('A’s pull sent', async () =>
      (await devnet.transactions()).some((tx) => tx.function === 'pull_funds' && tx.source === channel),
    );
    await a.kill('SIGKILL');
    const leased = await db.query(
      `SELECT c.leased_by, c.lease_max_time, extract(epoch FROM p.max_time)::bigint AS tx_max_time
         FROM channels c JOIN pulls p ON p.source_account = c.public_key WHERE c.public_key = $1`,
      [channel],
    );
    expect(leased.rows[0].leased_by).not.toBeNull();
    // Every transaction built under the lease is bounded by it.
    expect(Number(leased.rows[0].lease_max_time)).toBeGreaterThanOrEqual(Number(leased.rows[0].tx_max_time));

    // 2. Replica B needs the channel: it waits while the network's time has not passed the lost
    // transaction's time bound, then takes it. Ledgers are closed by the test.
    const next = call(b.url, 'POST', '/trigger-pull', { subscription_id: subs[1], merchant_secret: wallet.secret() });
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      (await devnet.transactions()).filter((tx) => tx.function === 'pull_funds' && tx.source === channel),
    ).toHaveLength(1); // nothing sent while the lease was live
    stop = closeLedgersEvery(devnet, 200);
    const res = await next;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const viaChannel = (await devnet.transactions()).filter(
      (tx) => tx.function === 'pull_funds' && tx.source === channel,
    );
    expect(viaChannel.map((tx) => tx.status)).toEqual(['dropped', 'success']);
    // The dead replica's attempt is resolved by B's reconciler, never sent again.
    await until(
      'A’s attempt resolved',
      async () => Number((await db.query(`SELECT count(*) AS n FROM pulls WHERE status = 'pending'`)).rows[0].n) === 0,
    );
    await stop();

    // 3. Nine more channels while B runs; a second replica replaces A.
    expect((await createChannels(9)).total).toBe(10);
    const c = await startServiceProcess(env());
    started.push(c);
    await new Promise((r) => setTimeout(r, 2500)); // the pool's size is re-read every 2 s

    // 4. Ten pulls of one merchant at once, alternating between the replicas.
    const ten = subs.slice(2, 12);
    stop = closeLedgersEvery(devnet, 200);
    const replies = await Promise.all(
      ten.map((id, i) =>
        call(i % 2 ? b.url : c.url, 'POST', '/trigger-pull', { subscription_id: id, merchant_secret: wallet.secret() }),
      ),
    );
    await stop();
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const hashes = new Set(replies.map((r) => r.body.txHash));
    expect(hashes.size).toBe(10);
    const onChain = (await devnet.transactions()).filter((tx) => hashes.has(tx.hash));
    expect(onChain.map((tx) => tx.status)).toEqual(Array(10).fill('success'));
    expect(onChain.some((tx) => tx.source === wallet.publicKey())).toBe(false);
    const free = await db.query('SELECT count(*) AS n FROM channels WHERE leased_by IS NULL');
    expect(Number(free.rows[0].n)).toBe(10);
  }, 240_000);
});
