// POST /trigger-pull against the local Soroban network over real JSON-RPC and XDR: every status
// of the spec's table, the state transitions, and the causes of simulation failures.
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type Target, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { del, post } from '../support/factories.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, subscriptionOf, triggerPull } from '../support/pull-fixture.ts';
import { tokenBalance } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 1000 });
});
afterAll(() => devnet?.stop());

/**
 * Tests that move ledger time get a network (and an app pointing at it) of their own: after a
 * shift, ledger close times run ahead of the wall clock that transaction time bounds are built
 * from, which would make every later attempt on a shared network look expired.
 */
async function withOwnNetwork(target: Target, fn: (t: TestApp, net: Devnet) => Promise<void>) {
  const net = await startDevnet({ ledgerMs: 1000 });
  const t = await startApp(target, { env: chainEnv(net) });
  try {
    await fn(t, net);
  } finally {
    await t.close();
    await net.stop();
  }
}

describe.each(TARGETS)('POST /trigger-pull on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: chainEnv(devnet) });
  });
  afterAll(() => t?.close());

  describe('200 confirmed', () => {
    it('moves the funds once and schedules the next cycle at the server clock + interval', async () => {
      const s = await setUpPull(t, devnet, { intervalSeconds: 3600 });
      const before = await tokenBalance(devnet, s.user.publicKey());
      t.clock.set('2031-05-01T10:00:00.000Z');
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        message: 'Successfully pulled funds on-chain!',
        txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(await tokenBalance(devnet, s.user.publicKey())).toBe(before - s.amount);
      expect(await tokenBalance(devnet, s.merchant.publicKey())).toBe(s.amount);
      expect(await subscriptionOf(t, s.subscriptionId)).toMatchObject({
        status: 'active',
        next_billing_date: '2031-05-01T11:00:00.000Z',
      });
      const chain = await pullsOnChain(devnet, s.merchant.publicKey());
      expect(chain.map((tx) => [tx.hash, tx.status])).toEqual([[res.body.txHash, 'success']]);
      expect(await pullsOf(t, s.subscriptionId)).toMatchObject([{ tx_hash: res.body.txHash, status: 'confirmed' }]);
    });

    it('a late pull shifts the schedule: the base is the confirmation time, not the old date', () =>
      withOwnNetwork(target, async (t, net) => {
        const s = await setUpPull(t, net, { intervalSeconds: 600 });
        t.clock.set('2031-06-01T00:00:00.000Z');
        expect((await triggerPull(t, s.subscriptionId, s.merchant.secret())).status).toBe(200);
        // Ten minutes pass on the ledger and a further day on the server: the next date is the
        // late confirmation plus the interval, with no catching up.
        await net.control('/advance-time', { seconds: 601 });
        await net.control('/close-ledger', {});
        t.clock.set('2031-06-02T00:00:00.000Z');
        expect((await triggerPull(t, s.subscriptionId, s.merchant.secret())).status).toBe(200);
        expect((await subscriptionOf(t, s.subscriptionId)).next_billing_date).toBe('2031-06-02T00:10:00.000Z');
      }));
  });

  describe('500 simulation failures name their cause', () => {
    it('too early by the service schedule: refused without touching the network', async () => {
      const s = await setUpPull(t, devnet);
      t.clock.set('2031-07-01T00:00:00.000Z');
      expect((await triggerPull(t, s.subscriptionId, s.merchant.secret())).status).toBe(200);
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'Too early to pull funds: next billing date is 2031-07-01T01:00:00.000Z',
        code: 'too_early',
        next_billing_date: '2031-07-01T01:00:00.000Z',
      });
      expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(1);
    });

    it('too early by the contract (ledger time): the cause is read from the vault entry', async () => {
      const s = await setUpPull(t, devnet, { intervalSeconds: 7200 });
      t.clock.set('2031-08-01T00:00:00.000Z');
      expect((await triggerPull(t, s.subscriptionId, s.merchant.secret())).status).toBe(200);
      t.clock.set('2031-08-01T03:00:00.000Z'); // due for the service, not for the ledger
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('too_early');
      expect(res.body.error).toMatch(/^Too early to pull funds: HostError: Error\(WasmVm, InvalidAction\)/);
      expect((await subscriptionOf(t, s.subscriptionId)).next_billing_date).toBe('2031-08-01T02:00:00.000Z');
    });

    it('vault missing', async () => {
      const s = await setUpPull(t, devnet, { withoutVault: true });
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('vault_missing');
      expect(res.body.error).toMatch(/^Vault does not exist: HostError: Error\(WasmVm, InvalidAction\)/);
    });

    it('allowance too small: the token contract #9', async () => {
      const s = await setUpPull(t, devnet, { amountPerInterval: 5_000_000n, allowance: 4_999_999n });
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('insufficient_allowance');
      expect(res.body.error).toMatch(/^Insufficient allowance: HostError: Error\(Contract, #9\)/);
      expect((await subscriptionOf(t, s.subscriptionId)).status).toBe('active');
    });

    it('balance too small: the token contract #10', async () => {
      const s = await setUpPull(t, devnet, { amountPerInterval: 5_000_000n, balance: 1n });
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('insufficient_balance');
      expect(res.body.error).toMatch(/^Insufficient balance: HostError: Error\(Contract, #10\)/);
    });
  });

  describe('502, 202 and submission failures', () => {
    it('502: failed on-chain marks past_due and leaves the date; a confirmed pull makes it active again', async () => {
      const s = await setUpPull(t, devnet);
      t.clock.set('2031-09-01T00:00:00.000Z');
      const before = await subscriptionOf(t, s.subscriptionId);
      await devnet.control('/faults', { kind: 'fail-next' });
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        error: 'Transaction failed on-chain',
        txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(await subscriptionOf(t, s.subscriptionId)).toEqual({ ...before, status: 'past_due' });
      expect(await pullsOf(t, s.subscriptionId)).toMatchObject([{ tx_hash: res.body.txHash, status: 'failed' }]);

      const retry = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(retry.status).toBe(200);
      expect(await subscriptionOf(t, s.subscriptionId)).toMatchObject({
        status: 'active',
        next_billing_date: '2031-09-01T01:00:00.000Z',
      });
    });

    it('202: unknown outcome; a retry before the time bound sends nothing new; after it, a new attempt succeeds', () =>
      withOwnNetwork(target, async (t, net) => {
        const s = await setUpPull(t, net);
        const before = await subscriptionOf(t, s.subscriptionId);
        await net.control('/faults', { kind: 'drop' });
        const first = await triggerPull(t, s.subscriptionId, s.merchant.secret());
        expect(first.status).toBe(202);
        expect(first.body).toEqual({
          message: 'Transaction submitted but not yet confirmed',
          txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
        expect(await subscriptionOf(t, s.subscriptionId)).toEqual(before);

        const retry = await triggerPull(t, s.subscriptionId, s.merchant.secret());
        expect(
          retry.status,
          JSON.stringify({
            retry: retry.body,
            history: await pullsOf(t, s.subscriptionId),
            chain: await net.transactions(),
          }),
        ).toBe(202);
        expect(retry.body.txHash).toBe(first.body.txHash);
        expect(await pullsOnChain(net, s.merchant.publicKey())).toHaveLength(1);

        // Ledger time moves past the 30 s time bound plus the safety margin: the attempt is dead.
        await net.control('/advance-time', { seconds: 60 });
        await net.control('/close-ledger', {});
        const after = await triggerPull(t, s.subscriptionId, s.merchant.secret());
        expect(after.status, JSON.stringify(after.body)).toBe(200);
        expect(after.body.txHash).not.toBe(first.body.txHash);
        const history = await pullsOf(t, s.subscriptionId);
        expect(
          history.map((p) => p.status),
          JSON.stringify({ history, chain: await net.transactions() }),
        ).toEqual(['confirmed', 'expired']);
        expect((await pullsOnChain(net, s.merchant.publicKey())).map((tx) => tx.status)).toEqual([
          'dropped',
          'success',
        ]);
      }));

    it('500 when sendTransaction answers ERROR: the network text, nothing changed, attempt recorded as rejected', async () => {
      const s = await setUpPull(t, devnet);
      const before = await subscriptionOf(t, s.subscriptionId);
      await devnet.control('/faults', { kind: 'send', status: 'ERROR' });
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'sendTransaction answered ERROR: txInternalError', code: 'submission_failed' });
      expect(await subscriptionOf(t, s.subscriptionId)).toEqual(before);
      expect(await pullsOf(t, s.subscriptionId)).toMatchObject([{ status: 'rejected' }]);
    });

    it('TRY_AGAIN_LATER: rebuilt with a higher bid after the next ledger, the refused envelope recorded as rejected', async () => {
      const s = await setUpPull(t, devnet);
      await devnet.control('/faults', { kind: 'send', status: 'TRY_AGAIN_LATER' });
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(200);
      expect((await pullsOnChain(devnet, s.merchant.publicKey())).map((tx) => tx.hash)).toEqual([res.body.txHash]);
      const history = await pullsOf(t, s.subscriptionId);
      expect(history).toMatchObject([
        { tx_hash: res.body.txHash, status: 'confirmed' },
        { status: 'rejected', error: 'sendTransaction answered TRY_AGAIN_LATER' },
      ]);
      expect(history[1]!.tx_hash).not.toBe(res.body.txHash);
    });

    it('an inclusion fee above MAX_INCLUSION_FEE is refused as fee_too_high before anything is sent', async () => {
      const capped = await startApp(target, { env: chainEnv(devnet, { MAX_INCLUSION_FEE: '100' }) });
      try {
        const s = await setUpPull(capped, devnet);
        await devnet.control('/faults', { kind: 'send', status: 'TRY_AGAIN_LATER' });
        // The network refuses the bid at the cap: the next bid would be above it.
        const res = await triggerPull(capped, s.subscriptionId, s.merchant.secret());
        expect(res.status).toBe(500);
        expect(res.body).toEqual({
          error: 'The network refused an inclusion fee of MAX_INCLUSION_FEE (100 stroops)',
          code: 'fee_too_high',
        });
        expect(await pullsOnChain(devnet, s.merchant.publicKey())).toEqual([]);
        expect(await pullsOf(capped, s.subscriptionId)).toMatchObject([{ status: 'rejected' }]);
      } finally {
        await capped.close();
      }
    });
  });

  describe('checks before the chain, in the decided order', () => {
    it('400 for a malformed subscription_id, a missing or blank secret, and a secret that is not a key', async () => {
      const s = await setUpPull(t, devnet, { withoutVault: true });
      expect(
        await post(t.app, '/trigger-pull', { subscription_id: 'nope', merchant_secret: s.merchant.secret() }),
      ).toMatchObject({
        status: 400,
        body: { error: 'Invalid input on subscription_id: subscription_id must be a valid UUID' },
      });
      expect(await post(t.app, '/trigger-pull', { subscription_id: s.subscriptionId })).toMatchObject({
        status: 400,
        body: { error: 'Invalid input on merchant_secret: Invalid input: expected string, received undefined' },
      });
      expect(
        await post(t.app, '/trigger-pull', { subscription_id: s.subscriptionId, merchant_secret: '  ' }),
      ).toMatchObject({
        status: 400,
        body: { error: 'Invalid input on merchant_secret: merchant_secret is required' },
      });
      const bad = await triggerPull(t, s.subscriptionId, 'SNOTAKEY');
      expect(bad).toMatchObject({
        status: 400,
        body: { error: 'Invalid merchant_secret: not a valid Stellar secret key' },
      });
    });

    it('404 Subscription not found comes before the secret checks', async () => {
      const res = await triggerPull(t, crypto.randomUUID(), 'SNOTAKEY');
      expect(res).toMatchObject({ status: 404, body: { error: 'Subscription not found' } });
    });

    it("404 Merchant not found once the plan's merchant is deleted, before the secret checks", async () => {
      const s = await setUpPull(t, devnet, { withoutVault: true });
      expect((await del(t.app, `/merchants/${s.merchantId}`)).status).toBe(200);
      expect(await triggerPull(t, s.subscriptionId, 'SNOTAKEY')).toMatchObject({
        status: 404,
        body: { error: 'Merchant not found' },
      });
    });

    it('401 when the secret is a valid key of another account', async () => {
      const s = await setUpPull(t, devnet, { withoutVault: true });
      const res = await triggerPull(t, s.subscriptionId, Keypair.random().secret());
      expect(res.status).toBe(401);
      expect(typeof res.body.error).toBe('string');
      expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(0);
    });
  });

  describe('one merchant, many pulls', () => {
    it('20 simultaneous requests for one subscription send exactly one transaction and never 502', async () => {
      const s = await setUpPull(t, devnet);
      t.clock.set('2031-10-01T00:00:00.000Z');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => triggerPull(t, s.subscriptionId, s.merchant.secret())),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses).not.toContain(502);
      expect(statuses).toContain(200);
      for (const a of answers) {
        if (a.status === 500) expect(a.body.code).toBe('too_early');
        else expect([200, 202]).toContain(a.status);
      }
      expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(1);
      expect(await subscriptionOf(t, s.subscriptionId)).toMatchObject({
        status: 'active',
        next_billing_date: '2031-10-01T01:00:00.000Z',
      });
    });

    it('10 subscriptions of one merchant pulled at once are all confirmed', async () => {
      const first = await setUpPull(t, devnet);
      const rest = await Promise.all(
        Array.from({ length: 9 }, () =>
          setUpPull(t, devnet, { merchant: first.merchant, merchantId: first.merchantId }),
        ),
      );
      const all = [first, ...rest];
      const answers = await Promise.all(all.map((s) => triggerPull(t, s.subscriptionId, s.merchant.secret())));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      const chain = await pullsOnChain(devnet, first.merchant.publicKey());
      expect(chain.filter((tx) => tx.status === 'success')).toHaveLength(10);
    }, 60_000);
  });
});

describe('POST /trigger-pull without CONTRACT_ID', () => {
  it('answers 500 with the spec message after the secret checks', async () => {
    const t = await startApp('pglite', { env: chainEnv(devnet, { CONTRACT_ID: undefined }) });
    try {
      const s = await setUpPull(t, devnet, { withoutVault: true });
      expect(await triggerPull(t, s.subscriptionId, Keypair.random().secret())).toMatchObject({ status: 401 });
      expect(await triggerPull(t, s.subscriptionId, s.merchant.secret())).toMatchObject({
        status: 500,
        body: { error: 'contract identifier not set in the environment file' },
      });
    } finally {
      await t.close();
    }
  });
});
