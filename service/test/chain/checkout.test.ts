// POST /checkout/{plan_id}/subscriptions (product.md, "checkout"): no key, and the row exists only
// once the ledger shows the vault with the plan's terms and an allowance of at least one cycle.
// Over real JSON-RPC to the local network, on both databases; keys mode shows it needs no key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { ADMIN_KEY, accountsEnv, as } from '../support/keys.ts';
import { newWallet } from '../support/factories.ts';
import { chainEnv } from '../support/pull-fixture.ts';
import { newFundedAccount, setUpSubscriber, type SubscriberOptions } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 200 });
});
afterAll(() => devnet?.stop());

const AMOUNT = 5_000_000n;
const INTERVAL = 3600;

describe.each(TARGETS)('POST /checkout/{plan_id}/subscriptions on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: { ...chainEnv(devnet), ...accountsEnv({ AUTH_MODE: 'keys' }) } });
  });
  afterAll(() => t?.close());

  /** A merchant and a plan in the local token; the subscriber's chain set-up is the caller's. */
  async function planFor() {
    const merchant = await newFundedAccount(devnet);
    const admin = as(t.app, ADMIN_KEY);
    const m = await admin.post('/merchants', { name: 'Checkout Co', wallet_address: merchant.publicKey() });
    const plan = await admin.post('/plans', {
      merchant_id: m.body.merchant.id,
      name: 'Hourly',
      token_amount: Number(AMOUNT),
      interval_seconds: INTERVAL,
      token_contract_id: devnet.contracts.token,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    return { merchant, merchantId: m.body.merchant.id as string, planId: plan.body.plan.id as string };
  }

  const checkout = (planId: string, wallet: string) =>
    as(t.app).post(`/checkout/${planId}/subscriptions`, { customer_wallet_address: wallet });

  async function refused(o: Partial<SubscriberOptions>, code: string, detail: RegExp) {
    const { merchant, merchantId, planId } = await planFor();
    const user = await setUpSubscriber(devnet, merchant.publicKey(), {
      amountPerInterval: AMOUNT,
      intervalSeconds: BigInt(INTERVAL),
      ...o,
    });
    const res = await checkout(planId, user.publicKey());
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.error).toMatch(/^Checkout not confirmed on chain: /);
    expect(res.body.error).toMatch(detail);
    // Nothing was written.
    const list = await as(t.app, ADMIN_KEY).get(`/merchants/${merchantId}/subscriptions`);
    expect(list.body.subscriptions).toEqual([]);
  }

  it('records the subscriber without a key once vault and allowance are on chain', async () => {
    const { merchant, merchantId, planId } = await planFor();
    const user = await setUpSubscriber(devnet, merchant.publicKey(), {
      amountPerInterval: AMOUNT,
      intervalSeconds: BigInt(INTERVAL),
      allowance: AMOUNT,
      balance: 0n,
    });
    const res = await checkout(planId, user.publicKey());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      message: 'Subscription created',
      subscription: { plan_id: planId, customer_wallet_address: user.publicKey(), status: 'active' },
    });
    const list = await as(t.app, ADMIN_KEY).get(`/merchants/${merchantId}/subscriptions`);
    expect(list.body.subscriptions.map((s: { id: string }) => s.id)).toEqual([res.body.subscription.id]);
    // The same wallet again: the spec's duplicate answer, passed through.
    expect((await checkout(planId, user.publicKey())).status).toBe(500);
  });

  it('no vault: 400 vault_missing, nothing written', () =>
    refused({ withoutVault: true }, 'vault_missing', /Vault does not exist/));

  it('a vault with other terms: 400 vault_terms_mismatch', () =>
    refused({ amountPerInterval: AMOUNT + 1n }, 'vault_terms_mismatch', /amount_per_interval is 5000001 in the vault/));

  it('an allowance below one cycle: 400 insufficient_allowance', () =>
    refused({ allowance: AMOUNT - 1n }, 'insufficient_allowance', /4999999 approved, 5000000 needed/));

  it('a wallet that did nothing on chain: vault_missing', async () => {
    const { planId } = await planFor();
    const res = await checkout(planId, newWallet());
    expect(res.body.code).toBe('vault_missing');
  });

  it('an unknown plan is 404 and a bad id 400', async () => {
    expect((await checkout(crypto.randomUUID(), newWallet())).body).toEqual({ error: 'Plan not found' });
    const bad = await checkout('nope', newWallet());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid input on plan_id: plan_id parameter must be a valid UUID');
  });
});
