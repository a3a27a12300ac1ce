// /trigger-pull with a merchant's stored signing key, over the local network: a caller with an API
// key may leave merchant_secret out; the spec's keyless flow is unchanged (a missing secret is
// still the spec's 400). Also: the one interval rule end to end (a plan longer than 2^31 - 1
// seconds is pulled and scheduled), plans that cannot be pulled, and the 401's new code.
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SIGNING_KEY } from '../../src/billing/signing-keys/open-signing-key.ts';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { createPlan, createSubscription, newWallet } from '../support/factories.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { chainEnv, pullsOnChain, setUpPull, subscriptionOf } from '../support/pull-fixture.ts';
import { newFundedAccount, setUpSubscriber, tokenBalance } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 1000 });
});
afterAll(() => devnet?.stop());

describe.each(TARGETS)('stored signing key on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: { ...chainEnv(devnet), ...accountsEnv() } });
  });
  afterAll(() => t?.close());

  /** A funded merchant with its API key, and one subscriber with a vault. */
  async function keyedPull(o: { intervalSeconds?: number } = {}) {
    const wallet = await newFundedAccount(devnet);
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    const s = await setUpPull(t, devnet, { merchant: wallet, merchantId: merchant.id, ...o });
    return { ...s, key };
  }

  it('a merchant key without merchant_secret signs with the stored key: 200, funds moved once', async () => {
    const s = await keyedPull();
    expect(
      (await as(t.app, s.key).put(`/merchants/${s.merchantId}/signing-key`, { secret: s.merchant.secret() })).status,
    ).toBe(200);
    const before = await tokenBalance(devnet, s.user.publicKey());
    t.clock.set('2032-01-01T00:00:00.000Z');
    const res = await as(t.app, s.key).post('/trigger-pull', { subscription_id: s.subscriptionId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      message: 'Successfully pulled funds on-chain!',
      txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await tokenBalance(devnet, s.user.publicKey())).toBe(before - s.amount);
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(1);
    expect((await subscriptionOf(t, s.subscriptionId)).next_billing_date).toBe('2032-01-01T01:00:00.000Z');
  });

  it('a merchant key with merchant_secret uses the secret (the spec flow), stored key or not', async () => {
    const s = await keyedPull();
    const res = await as(t.app, s.key).post('/trigger-pull', {
      subscription_id: s.subscriptionId,
      merchant_secret: s.merchant.secret(),
    });
    expect(res.status).toBe(200);
  });

  it('no stored key and no merchant_secret: 400 with a clear message, nothing sent', async () => {
    const s = await keyedPull();
    const res = await as(t.app, s.key).post('/trigger-pull', { subscription_id: s.subscriptionId });
    expect(res).toMatchObject({ status: 400, body: { error: NO_SIGNING_KEY } });
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(0);
  });

  it("without a key, a missing merchant_secret is still the spec's 400, even when a key is stored", async () => {
    const s = await keyedPull();
    await as(t.app, s.key).put(`/merchants/${s.merchantId}/signing-key`, { secret: s.merchant.secret() });
    const res = await as(t.app).post('/trigger-pull', { subscription_id: s.subscriptionId });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'Invalid input on merchant_secret: Invalid input: expected string, received undefined' },
    });
  });

  it("the spec's 401 keeps its text and gains code secret_mismatch", async () => {
    const s = await keyedPull();
    const res = await as(t.app).post('/trigger-pull', {
      subscription_id: s.subscriptionId,
      merchant_secret: Keypair.random().secret(),
    });
    expect(res).toMatchObject({
      status: 401,
      body: { error: 'merchant_secret does not match the wallet of the plan owner', code: 'secret_mismatch' },
    });
  });

  it('interval_seconds above 2^31 - 1: created, pulled on-chain, and scheduled that far ahead', async () => {
    const interval = 4_000_000_000;
    const s = await keyedPull({ intervalSeconds: interval });
    t.clock.set('2032-02-01T00:00:00.000Z');
    const res = await as(t.app, s.key).post('/trigger-pull', {
      subscription_id: s.subscriptionId,
      merchant_secret: s.merchant.secret(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = new Date(Date.parse('2032-02-01T00:00:00.000Z') + interval * 1000).toISOString();
    expect((await subscriptionOf(t, s.subscriptionId)).next_billing_date).toBe(expected);
  });

  it('a plan priced in a fraction of a raw unit cannot be pulled: 500 invalid_plan_amount before the chain', async () => {
    const wallet = await newFundedAccount(devnet);
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    const plan = await createPlan(t.app, merchant.id, { token_amount: '10.5' });
    const sub = await createSubscription(t.app, plan.id, newWallet());
    const res = await as(t.app, key).post('/trigger-pull', {
      subscription_id: sub.id,
      merchant_secret: wallet.secret(),
    });
    expect(res).toMatchObject({
      status: 500,
      body: { code: 'invalid_plan_amount', error: expect.stringContaining('10.5') },
    });
    expect(await pullsOnChain(devnet, wallet.publicKey())).toHaveLength(0);
  });
});

describe('stored signing key in AUTH_MODE=keys', () => {
  it('collects unattended with only the merchant key', async () => {
    const t = await startApp('pglite', { env: { ...chainEnv(devnet), ...accountsEnv({ AUTH_MODE: 'keys' }) } });
    try {
      const wallet = await newFundedAccount(devnet);
      const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
      const me = as(t.app, key);
      expect((await me.put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() })).status).toBe(200);
      // setUpPull posts without a key, which keys mode refuses: build the plan and subscription with the key.
      const plan = (
        await me.post('/plans', {
          merchant_id: merchant.id,
          name: 'P',
          token_amount: '10000000',
          interval_seconds: 3600,
        })
      ).body.plan;
      const user = await setUpSubscriber(devnet, wallet.publicKey(), {
        amountPerInterval: 10_000_000n,
        intervalSeconds: 3600n,
      });
      const sub = (await me.post('/subscriptions', { plan_id: plan.id, customer_wallet_address: user.publicKey() }))
        .body.subscription;
      expect(
        (await as(t.app).post('/trigger-pull', { subscription_id: sub.id, merchant_secret: wallet.secret() })).status,
      ).toBe(401);
      const res = await me.post('/trigger-pull', { subscription_id: sub.id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } finally {
      await t.close();
    }
  });
});
