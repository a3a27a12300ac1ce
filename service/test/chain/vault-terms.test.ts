// The vault's terms are checked against the plan before anything is signed, and what a confirmed
// pull moved is taken from the token's transfer event, not assumed from the plan. Over real
// JSON-RPC to the local network, on both databases.
import { Address, Keypair, nativeToScVal } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { createMerchant, createPlan, get } from '../support/factories.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, subscriptionOf, triggerPull } from '../support/pull-fixture.ts';
import { sendInvoke, tokenBalance } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 1000 });
});
afterAll(() => devnet?.stop());

/** Some other contract id: a token the plan does not name. */
const otherToken = () => Address.contract(Keypair.random().rawPublicKey()).toString();

describe.each(TARGETS)('vault terms on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: chainEnv(devnet) });
  });
  afterAll(() => t?.close());

  async function refused(o: Parameters<typeof setUpPull>[2], detail: string) {
    const s = await setUpPull(t, devnet, { planToken: devnet.contracts.token, ...o });
    const before = await subscriptionOf(t, s.subscriptionId);
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(500);
    expect(res.body).toEqual({ error: `Vault terms do not match the plan: ${detail}`, code: 'vault_terms_mismatch' });
    // No transaction reached the network and nothing changed.
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toEqual([]);
    expect(await subscriptionOf(t, s.subscriptionId)).toEqual(before);
    expect(await pullsOf(t, s.subscriptionId)).toEqual([]);
    return s;
  }

  it('a vault that pulls less than the plan asks is refused', () =>
    refused(
      { amountPerInterval: 10_000_000n, vault: { amountPerInterval: 1n } },
      'amount_per_interval is 1 in the vault, 10000000 in the plan',
    ));

  it('a vault that pulls more than the plan asks is refused', () =>
    refused(
      { amountPerInterval: 5_000n, vault: { amountPerInterval: 6_000n } },
      'amount_per_interval is 6000 in the vault, 5000 in the plan',
    ));

  it('a shorter interval (more pulls than the plan) is refused', () =>
    refused(
      { intervalSeconds: 3600, vault: { intervalSeconds: 60n } },
      'interval_seconds is 60 in the vault, 3600 in the plan',
    ));

  it('a longer interval (every scheduled pull too early) is refused', () =>
    refused(
      { intervalSeconds: 3600, vault: { intervalSeconds: 7200n } },
      'interval_seconds is 7200 in the vault, 3600 in the plan',
    ));

  it('another token is refused, found by reading the vault after the failed simulation', () => {
    const token = otherToken();
    return refused({ vault: { token } }, `token is ${token} in the vault, ${devnet.contracts.token} in the plan`);
  });

  it('a mismatch is named before an allowance shortfall', () =>
    refused(
      { amountPerInterval: 100n, allowance: 0n, vault: { amountPerInterval: 50n } },
      'amount_per_interval is 50 in the vault, 100 in the plan',
    ));

  it('records what the transfer event says moved, the token and the fee', async () => {
    const s = await setUpPull(t, devnet, { planToken: devnet.contracts.token, amountPerInterval: 7_654_321n });
    t.clock.set('2031-03-01T00:00:00.000Z');
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await tokenBalance(devnet, s.merchant.publicKey())).toBe(7_654_321n);
    const [pull] = await pullsOf(t, s.subscriptionId);
    expect(pull).toMatchObject({
      tx_hash: res.body.txHash,
      status: 'confirmed',
      amount: 7_654_321,
      transferred_amount: 7_654_321,
      token_contract_id: devnet.contracts.token,
      discrepancy: null,
    });
    expect(pull!.fee_charged).toBeGreaterThan(0);
  });

  it('a plan without a token accepts the vault token and records it on the pull', async () => {
    const s = await setUpPull(t, devnet);
    expect((await get(t.app, `/subscriptions/${s.subscriptionId}`)).status).toBe(200);
    t.clock.set('2031-03-02T00:00:00.000Z');
    expect((await triggerPull(t, s.subscriptionId, s.merchant.secret())).status).toBe(200);
    expect((await pullsOf(t, s.subscriptionId))[0]).toMatchObject({
      token_contract_id: devnet.contracts.token,
      transferred_amount: Number(s.amount),
    });
  });

  it('a vault changed between simulation and inclusion: confirmed, and the difference is recorded', async () => {
    const s = await setUpPull(t, devnet, { amountPerInterval: 9_000n });
    await devnet.control('/pause', {});
    try {
      // The subscriber re-creates its vault at 1 unit; the pull is simulated against the last
      // closed ledger (9,000) and both land in the next ledger, the subscriber's first.
      await sendInvoke(devnet, s.user, devnet.contracts.vault, 'create_vault', [
        new Address(s.user.publicKey()).toScVal(),
        new Address(s.merchant.publicKey()).toScVal(),
        new Address(devnet.contracts.token).toScVal(),
        nativeToScVal(1n, { type: 'i128' }),
        nativeToScVal(3600n, { type: 'u64' }),
      ]);
      t.clock.set('2031-03-03T00:00:00.000Z');
      const pending = triggerPull(t, s.subscriptionId, s.merchant.secret());
      await waitFor(async () => (await pullsOnChain(devnet, s.merchant.publicKey())).length === 1);
      await devnet.control('/resume', {});
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } finally {
      await devnet.control('/resume', {});
    }
    expect(await tokenBalance(devnet, s.merchant.publicKey())).toBe(1n);
    expect((await pullsOf(t, s.subscriptionId))[0]).toMatchObject({
      status: 'confirmed',
      amount: 9000,
      transferred_amount: 1,
      discrepancy: 'transfer differs from the plan: 1 moved, the plan asks 9000',
    });
    // The cycle was charged on-chain (the vault's clock moved), so the schedule moves too.
    expect((await subscriptionOf(t, s.subscriptionId)).next_billing_date).toBe('2031-03-03T01:00:00.000Z');
  });

  it('POST /plans takes token_contract_id, checks it, and shows it', async () => {
    const m = await createMerchant(t.app);
    const plan = await createPlan(t.app, m.id, { token_contract_id: devnet.contracts.token });
    expect(plan.token_contract_id).toBe(devnet.contracts.token);
    expect((await get(t.app, `/plans/${plan.id}`)).body.plan.token_contract_id).toBe(devnet.contracts.token);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/plans',
      payload: {
        merchant_id: m.id,
        name: 'x',
        token_amount: 1,
        interval_seconds: 60,
        token_contract_id: 'CNOTACONTRACT',
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: 'Invalid input on token_contract_id: must be a valid Stellar contract address (C…)',
    });
  });
});

describe('DEFAULT_TOKEN_CONTRACT_ID', () => {
  it('applies to a plan created without a token, and is kept when the default changes', async () => {
    const first = await startApp('pglite', { env: { DEFAULT_TOKEN_CONTRACT_ID: devnet.contracts.token } });
    try {
      const m = await createMerchant(first.app);
      expect((await createPlan(first.app, m.id)).token_contract_id).toBe(devnet.contracts.token);
      const explicit = otherToken();
      expect((await createPlan(first.app, m.id, { token_contract_id: explicit })).token_contract_id).toBe(explicit);
    } finally {
      await first.close();
    }
    const none = await startApp('pglite');
    try {
      expect((await createPlan(none.app, (await createMerchant(none.app)).id)).token_contract_id).toBeNull();
    } finally {
      await none.close();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
