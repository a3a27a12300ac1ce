// Exactly-once collection across processes: two replicas sharing one PostgreSQL server, and a
// replica killed with SIGKILL between sendTransaction and the confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedPgUrl } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { chainEnv, pullsOnChain } from '../support/pull-fixture.ts';
import { http, startServiceProcess, type ServiceProcess } from '../support/service-process.ts';
import { newFundedAccount, setUpSubscriber } from '../support/subscriber.ts';

let devnet: Devnet;
let databaseUrl: string;
const started: ServiceProcess[] = [];
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 1000 });
  // Its own database: every process reconciles on start-up, and would judge the pending attempts
  // of suites beside it against this network.
  databaseUrl = await isolatedPgUrl();
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.kill('SIGKILL')));
  await devnet?.stop();
});

async function replica(over: Record<string, string> = {}) {
  const s = await startServiceProcess({ ...chainEnv(devnet), DATABASE_URL: databaseUrl, ...over });
  started.push(s);
  return s;
}

async function subscribe(api: string) {
  const merchant = await newFundedAccount(devnet);
  const m = await http(api, 'POST', '/merchants', { name: 'Replica Co', wallet_address: merchant.publicKey() });
  const p = await http(api, 'POST', '/plans', {
    merchant_id: m.body.merchant.id,
    name: 'Daily',
    token_amount: 1_000_000,
    interval_seconds: 86_400,
  });
  const user = await setUpSubscriber(devnet, merchant.publicKey(), {
    amountPerInterval: 1_000_000n,
    intervalSeconds: 86_400n,
  });
  const s = await http(api, 'POST', '/subscriptions', {
    plan_id: p.body.plan.id,
    customer_wallet_address: user.publicKey(),
  });
  expect(s.status).toBe(201);
  return { merchant, subscription: s.body.subscription as { id: string; next_billing_date: string } };
}

describe('exactly once across processes (PostgreSQL server)', () => {
  it('20 simultaneous pulls of one subscription over two replicas: one transaction, no 502, the date moved once', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const { merchant, subscription } = await subscribe(a.url);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http(i % 2 ? b.url : a.url, 'POST', '/trigger-pull', {
          subscription_id: subscription.id,
          merchant_secret: merchant.secret(),
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses).not.toContain(502);
    expect(statuses).toContain(200);
    for (const r of answers) if (r.status === 500) expect(r.body.code).toBe('too_early');
    expect(await pullsOnChain(devnet, merchant.publicKey())).toHaveLength(1);
    const after = await http(b.url, 'GET', `/subscriptions/${subscription.id}`);
    expect(after.body.subscription.status).toBe('active');
    const moved =
      new Date(after.body.subscription.next_billing_date).getTime() -
      new Date(subscription.next_billing_date).getTime();
    expect(moved).toBeGreaterThanOrEqual(86_400_000);
    expect(moved).toBeLessThan(86_400_000 + 120_000);
    const history = await http(a.url, 'GET', `/subscriptions/${subscription.id}/pulls`);
    expect(history.body.pulls.map((p: { status: string }) => p.status)).toEqual(['confirmed']);
  }, 60_000);

  it('SIGKILL after send and before confirmation: a restarted replica resolves the attempt once', async () => {
    const a = await replica({ RECONCILE_INTERVAL_MS: '0' });
    const { merchant, subscription } = await subscribe(a.url);
    await devnet.control('/faults', { kind: 'delay', ledgers: 4 });
    const inFlight = http(a.url, 'POST', '/trigger-pull', {
      subscription_id: subscription.id,
      merchant_secret: merchant.secret(),
    }).catch(() => 'killed');
    // Wait until the network holds the transaction, then kill the replica before it can see the outcome.
    for (let i = 0; (await pullsOnChain(devnet, merchant.publicKey())).length === 0; i++) {
      if (i > 100) throw new Error('the pull never reached the network');
      await new Promise((r) => setTimeout(r, 50));
    }
    await a.kill('SIGKILL');
    expect(await inFlight).toBe('killed');
    const [queued] = await pullsOnChain(devnet, merchant.publicKey());
    expect(queued.status).toBe('queued');

    const b = await replica({ RECONCILE_INTERVAL_MS: '300' });
    let history: { status: string; tx_hash: string }[] = [];
    for (let i = 0; i < 100; i++) {
      history = (await http(b.url, 'GET', `/subscriptions/${subscription.id}/pulls`)).body.pulls;
      if (history[0]?.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(history).toMatchObject([{ status: 'confirmed', tx_hash: queued.hash }]);
    const chain = await pullsOnChain(devnet, merchant.publicKey());
    expect(chain.map((tx) => [tx.hash, tx.status])).toEqual([[queued.hash, 'success']]);
    const after = (await http(b.url, 'GET', `/subscriptions/${subscription.id}`)).body.subscription;
    expect(new Date(after.next_billing_date).getTime()).toBeGreaterThan(
      new Date(subscription.next_billing_date).getTime() + 86_000_000,
    );
    // A further pull is refused by the schedule, not sent: the cycle was collected once.
    const again = await http(b.url, 'POST', '/trigger-pull', {
      subscription_id: subscription.id,
      merchant_secret: merchant.secret(),
    });
    expect(again.body.code).toBe('too_early');
    expect(await pullsOnChain(devnet, merchant.publicKey())).toHaveLength(1);
  }, 60_000);

  it('SIGTERM while a pull is being polled: the answer is sent, the outcome recorded, then the process exits 0', async () => {
    const a = await replica();
    const { merchant, subscription } = await subscribe(a.url);
    await devnet.control('/faults', { kind: 'delay', ledgers: 2 });
    const answer = http(a.url, 'POST', '/trigger-pull', {
      subscription_id: subscription.id,
      merchant_secret: merchant.secret(),
    });
    for (let i = 0; (await pullsOnChain(devnet, merchant.publicKey())).length === 0; i++) {
      if (i > 100) throw new Error('the pull never reached the network');
      await new Promise((r) => setTimeout(r, 50));
    }
    const exited = new Promise<number | null>((resolve) => a.process.once('exit', (code) => resolve(code)));
    a.process.kill('SIGTERM');
    expect((await answer).status).toBe(200);
    expect(await exited).toBe(0);
    const b = await replica();
    const history = (await http(b.url, 'GET', `/subscriptions/${subscription.id}/pulls`)).body.pulls;
    expect(history.map((p: { status: string }) => p.status)).toEqual(['confirmed']);
  }, 60_000);
});
