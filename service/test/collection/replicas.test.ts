// Two service processes on one PostgreSQL database collect 200 due subscriptions of 20 merchants
// with nobody calling: each cycle collected exactly once (on chain and in the database), and one
// replica SIGKILLed mid-collection changes nothing about that — the other finishes, the dead one's
// leases lapse and its attempts in flight are resolved, never sent twice.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { accountsEnv, ADMIN_KEY } from '../support/keys.ts';
import { chainEnv } from '../support/pull-fixture.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.ts';
import { newFundedAccount, setUpSubscriber } from '../support/subscriber.ts';

const MERCHANTS = 20;
const PER_MERCHANT = 10;

let devnet: Devnet;
let databaseUrl: string;
const started: ServiceProcess[] = [];
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 500 });
  // A database of its own: the collectors must not meet other test files' due work.
  const admin = new pg.Client({ connectionString: inject('pgUrl') });
  await admin.connect();
  const name = `collector_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}, 60_000);
afterAll(async () => {
  await Promise.all(started.map((s) => s.kill('SIGKILL')));
  await devnet?.stop();
});

const env = (over: Record<string, string> = {}) => ({
  ...chainEnv(devnet),
  ...accountsEnv(),
  DATABASE_URL: databaseUrl,
  COLLECTOR_ENABLED: 'true',
  COLLECTOR_INTERVAL_MS: '300',
  COLLECTOR_CONCURRENCY: '8',
  RECONCILE_INTERVAL_MS: '1000',
  TX_POLL_TIMEOUT_MS: '3000',
  RPC_TIMEOUT_MS: '2000',
  MERCHANT_QUEUE_WAIT_MS: '20000',
  ...over,
});

async function call(base: string, method: string, path: string, body?: unknown, key = ADMIN_KEY) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('two replicas collecting on one PostgreSQL', () => {
  it('collect 200 due cycles of 20 merchants exactly once, one replica SIGKILLed on the way', async () => {
    // Set up with the collector off, so that everything is due at once when the replicas start.
    const setup = await startServiceProcess(env({ COLLECTOR_ENABLED: 'false' }));
    started.push(setup);
    const subs: string[] = [];
    const users = new Map<string, string>();
    await Promise.all(
      Array.from({ length: MERCHANTS }, async () => {
        const wallet = await newFundedAccount(devnet);
        const m = await call(setup.url, 'POST', '/merchants', {
          name: 'Collected Co',
          wallet_address: wallet.publicKey(),
        });
        expect(m.status).toBe(201);
        expect(
          (await call(setup.url, 'PUT', `/merchants/${m.body.merchant.id}/signing-key`, { secret: wallet.secret() }))
            .status,
        ).toBe(200);
        const p = await call(setup.url, 'POST', '/plans', {
          merchant_id: m.body.merchant.id,
          name: 'Hourly',
          token_amount: 1_000,
          interval_seconds: 3600,
        });
        for (let i = 0; i < PER_MERCHANT; i++) {
          const user = await setUpSubscriber(devnet, wallet.publicKey(), {
            amountPerInterval: 1_000n,
            intervalSeconds: 3600n,
          });
          const s = await call(setup.url, 'POST', '/subscriptions', {
            plan_id: p.body.plan.id,
            customer_wallet_address: user.publicKey(),
          });
          expect(s.status).toBe(201);
          subs.push(s.body.subscription.id);
          users.set(user.publicKey(), s.body.subscription.id);
        }
      }),
    );
    await setup.kill();

    const [a, b] = [await startServiceProcess(env()), await startServiceProcess(env())];
    started.push(a, b);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const confirmed = async () =>
      Number((await db.query(`SELECT count(*) AS n FROM pulls WHERE status = 'confirmed'`)).rows[0].n);
    try {
      // Kill one replica once collection is under way.
      for (let i = 0; (await confirmed()) < 20; i++) {
        if (i > 600) throw new Error('collection did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
      await a.kill('SIGKILL');
      for (let i = 0; (await confirmed()) < subs.length; i++) {
        if (i > 1800) throw new Error(`only ${await confirmed()} of ${subs.length} collected`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // Let anything still in flight land or expire before counting.
      await new Promise((r) => setTimeout(r, 4000));

      const perSub = await db.query(
        `SELECT subscription_id, count(*) FILTER (WHERE status = 'confirmed') AS n FROM pulls GROUP BY subscription_id`,
      );
      expect(perSub.rows.length).toBe(subs.length);
      for (const row of perSub.rows) expect(Number(row.n), row.subscription_id).toBe(1);
      const pending = await db.query(`SELECT count(*) AS n FROM pulls WHERE status = 'pending'`);
      expect(Number(pending.rows[0].n)).toBe(0);
      // On chain: one successful pull_funds per subscriber, never two.
      const onChain = (await devnet.transactions()).filter(
        (tx) => tx.function === 'pull_funds' && tx.status === 'success',
      );
      const perUser = new Map<string, number>();
      for (const tx of onChain) {
        const user = tx.args[0]!;
        perUser.set(user, (perUser.get(user) ?? 0) + 1);
      }
      expect([...perUser.values()].every((n) => n === 1)).toBe(true);
      expect(onChain.length).toBe(subs.length);
    } finally {
      await db.end();
    }
  }, 300_000);
});
