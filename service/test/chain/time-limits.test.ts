// No outside call without a time limit: an RPC that never answers, an answer lost after the
// network took the transaction, a merchant queue that is full or slow, a reconciler facing a dead
// RPC, and RPC failures that reach logs and answers without the RPC's URL or headers. Over real
// JSON-RPC to the local network through a loopback proxy that misbehaves on demand.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnvFor, startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, subscriptionOf, triggerPull } from '../support/pull-fixture.ts';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy.ts';

const RPC_TIMEOUT_MS = 400;

let devnet: Devnet;
let proxy: RpcProxy;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 500 });
  proxy = await startRpcProxy(devnet.rpcUrl);
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.stop();
});

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const out = await fn();
  return [out, Date.now() - started];
}

describe.each(TARGETS)('time limits on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // A database of its own: its reconcilePending rounds settle every pending attempt they see,
    // and would judge other suites' attempts against this network.
    t = await startApp(target, {
      env: {
        ...chainEnv(devnet, {
          SOROBAN_RPC_URL: proxy.url,
          RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
          TX_POLL_TIMEOUT_MS: '1500',
        }),
        ...(await isolatedEnvFor(target)),
      },
    });
  });
  afterAll(() => t?.close());

  it('an RPC that never answers: 500 chain_unavailable within the limit, nothing changed', async () => {
    const s = await setUpPull(t, devnet);
    const before = await subscriptionOf(t, s.subscriptionId);
    proxy.mode = { kind: 'hang' };
    try {
      // Two pulls of one merchant: the second waits behind the first, and both still answer.
      const second = await setUpPull(t, devnet, { merchant: s.merchant, merchantId: s.merchantId });
      const [answers, ms] = await timed(() =>
        Promise.all([
          triggerPull(t, s.subscriptionId, s.merchant.secret()),
          triggerPull(t, second.subscriptionId, s.merchant.secret()),
        ]),
      );
      expect(ms).toBeLessThan(4 * RPC_TIMEOUT_MS + 1500);
      for (const res of answers) {
        expect(res.status).toBe(500);
        expect(res.body).toEqual({
          error: expect.stringMatching(/^Soroban RPC unavailable: getLedgerEntries: /),
          code: 'chain_unavailable',
        });
      }
    } finally {
      proxy.mode = { kind: 'pass' };
    }
    expect(await subscriptionOf(t, s.subscriptionId)).toEqual(before);
    expect(await pullsOf(t, s.subscriptionId)).toEqual([]);
  });

  it('a lost sendTransaction answer is an unknown outcome: 202, the attempt stays pending, the reconciler confirms it', async () => {
    const s = await setUpPull(t, devnet);
    t.clock.set('2031-04-01T00:00:00.000Z');
    proxy.mode = { kind: 'lose-answer', method: 'sendTransaction' };
    let res: Awaited<ReturnType<typeof triggerPull>>;
    try {
      res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    } finally {
      proxy.mode = { kind: 'pass' };
    }
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({
      message: 'Transaction submitted but not yet confirmed',
      txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await pullsOf(t, s.subscriptionId)).toMatchObject([{ tx_hash: res.body.txHash, status: 'pending' }]);
    // The network did take it.
    await until(async () => (await pullsOnChain(devnet, s.merchant.publicKey()))[0]?.status === 'success');
    await t.deps.pullVerbs.reconcilePending();
    expect(await pullsOf(t, s.subscriptionId)).toMatchObject([{ tx_hash: res.body.txHash, status: 'confirmed' }]);
    expect((await subscriptionOf(t, s.subscriptionId)).next_billing_date).toBe('2031-04-01T01:00:00.000Z');
  });

  it('a reconciler round facing a dead RPC ends within its limits, and the next round resolves the attempt', async () => {
    const s = await setUpPull(t, devnet);
    t.clock.set('2031-04-02T00:00:00.000Z');
    proxy.mode = { kind: 'lose-answer', method: 'sendTransaction' };
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret()).finally(() => {
      proxy.mode = { kind: 'hang' };
    });
    expect(res.status).toBe(202);
    try {
      for (let round = 0; round < 2; round++) {
        const [counts, ms] = await timed(() => t.deps.pullVerbs.reconcilePending());
        expect(counts.unreachable).toBeGreaterThanOrEqual(1);
        expect(ms).toBeLessThan(counts.unreachable * RPC_TIMEOUT_MS + 2000);
      }
    } finally {
      proxy.mode = { kind: 'pass' };
    }
    await until(async () => (await pullsOnChain(devnet, s.merchant.publicKey()))[0]?.status === 'success');
    expect((await t.deps.pullVerbs.reconcilePending()).confirmed).toBeGreaterThanOrEqual(1);
    expect(await pullsOf(t, s.subscriptionId)).toMatchObject([{ status: 'confirmed' }]);
  });
});

describe('the merchant queue has a bound and a maximum wait', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('a full queue and a long wait answer 500 chain_busy without touching the network', async () => {
    t = await startApp('pglite', {
      env: chainEnv(devnet, {
        SOROBAN_RPC_URL: proxy.url,
        RPC_TIMEOUT_MS: '600',
        MERCHANT_QUEUE_MAX: '1',
        MERCHANT_QUEUE_WAIT_MS: '200',
      }),
    });
    const a = await setUpPull(t, devnet);
    const b = await setUpPull(t, devnet, { merchant: a.merchant, merchantId: a.merchantId });
    const c = await setUpPull(t, devnet, { merchant: a.merchant, merchantId: a.merchantId });
    proxy.mode = { kind: 'hang' };
    try {
      const [first, second, third] = await Promise.all([
        triggerPull(t, a.subscriptionId, a.merchant.secret()),
        triggerPull(t, b.subscriptionId, a.merchant.secret()),
        triggerPull(t, c.subscriptionId, a.merchant.secret()),
      ]);
      expect(first.body.code).toBe('chain_unavailable'); // it ran, and the RPC did not answer
      const busy = [second, third].map((r) => [r.status, r.body.code, r.body.error.split(':')[0]]);
      expect(busy).toEqual([
        [500, 'chain_busy', 'Too many pulls in flight for this merchant'],
        [500, 'chain_busy', 'Too many pulls in flight for this merchant'],
      ]);
      expect([second, third].map((r) => r.body.error).sort()).toEqual([
        expect.stringMatching(/1 pulls of this merchant are already waiting$/),
        expect.stringMatching(/waited \d+ ms for this merchant's earlier pulls$/),
      ]);
    } finally {
      proxy.mode = { kind: 'pass' };
    }
  });
});

describe('RPC failures reach logs and answers without the RPC URL or headers', () => {
  it('a gateway 503 in front of an RPC whose URL carries an API key', async () => {
    const keyed = await startRpcProxy(devnet.rpcUrl, '/v1/APIKEY-do-not-leak-123/');
    keyed.mode = { kind: 'status', status: 503 };
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await startApp('pglite', {
      env: { ...chainEnv(devnet, { SOROBAN_RPC_URL: keyed.url }), LOG_LEVEL: 'trace' },
      logDestination: stream,
    });
    try {
      const s = await setUpPull(t, devnet);
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'Soroban RPC unavailable: getLedgerEntries: Request failed with status code 503',
        code: 'chain_unavailable',
      });
      await new Promise((r) => setTimeout(r, 400)); // the logger flushes every 250 ms
      const log = lines.join('');
      expect(log).toContain('Soroban RPC unavailable');
      expect(log).not.toContain('APIKEY-do-not-leak-123');
      expect(log).not.toContain('X-Client-Name');
      expect(log).not.toContain('"jsonrpc"');
    } finally {
      await t.close();
      await keyed.close();
    }
  });
});

async function until(check: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
