// Automatic collection over the local network, on both databases: due cycles collected with no
// caller, every dunning path at its scheduled times (the test clock), pre-flight refusals that send
// nothing, cancel and pause honoured, and early warnings before the due date.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCollector, type Collector } from '../../src/jobs/collector.ts';
import { isolatedEnvFor, startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { get, post } from '../support/factories.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, type PullSetupOptions } from '../support/pull-fixture.ts';
import { approveVault, newFundedAccount } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 200 });
});
afterAll(() => devnet?.stop());

const T0 = new Date('2033-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000).toISOString();

describe.each(TARGETS)('the collector on %s', (target) => {
  let t: TestApp;
  let collector: Collector;
  beforeAll(async () => {
    // A database of its own: a round takes every due row of its database, other suites' included.
    t = await startApp(target, {
      env: { ...(await isolatedEnvFor(target)), ...chainEnv(devnet), ...accountsEnv(), COLLECTOR_ENABLED: 'false' },
    });
    collector = startCollector(t.deps.collection, {
      intervalMs: 1000,
      concurrency: 4,
      log: pino({ level: 'silent' }),
      autoStart: false,
    });
  });
  afterAll(async () => {
    await collector?.stop();
    await t?.close();
  });

  /** A merchant with a stored signing key (so its subscriptions are collected) and one subscriber. */
  async function keyed(o: PullSetupOptions = {}) {
    const wallet = await newFundedAccount(devnet);
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    expect(
      (await as(t.app, key).put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() })).status,
    ).toBe(200);
    const s = await setUpPull(t, devnet, { merchant: wallet, merchantId: merchant.id, ...o });
    return { ...s, key };
  }
  const sub = async (id: string) => (await get(t.app, `/subscriptions/${id}`)).body.subscription;
  const round = () => collector.runOnce();

  it('collects a due cycle with no caller, once', async () => {
    t.clock.set(T0.toISOString());
    const s = await keyed();
    await round();
    expect(await sub(s.subscriptionId)).toMatchObject({ status: 'active', next_billing_date: at(3600) });
    expect(await pullsOf(t, s.subscriptionId)).toMatchObject([{ status: 'confirmed', origin: 'collector' }]);
    await round(); // not due again
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(1);
  });

  it('leaves merchants without a stored key to their callers', async () => {
    t.clock.set(T0.toISOString());
    const s = await setUpPull(t, devnet);
    await round();
    expect(await pullsOf(t, s.subscriptionId)).toEqual([]);
  });

  it('a failed payment: pre-flight sends nothing, past_due, retried on schedule, recovered on the second retry', async () => {
    t.clock.set(T0.toISOString());
    const s = await keyed({
      amountPerInterval: 5_000n,
      allowance: 4_000n,
      plan: { retry_schedule_seconds: [600, 1200] },
    });
    await round(); // try 1: the allowance is short
    expect(await sub(s.subscriptionId)).toMatchObject({ status: 'past_due', next_billing_date: at(0) });
    t.clock.set(at(599));
    await round(); // not yet
    t.clock.set(at(600));
    await round(); // try 2 (first retry): still short
    expect((await pullsOf(t, s.subscriptionId)).map((p) => [p.status, p.code])).toEqual([
      ['skipped', 'insufficient_allowance'],
      ['skipped', 'insufficient_allowance'],
    ]);
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toEqual([]); // pre-flight spent no fee
    // The subscriber approves more; the second retry comes 1200 s after the failed try 2.
    await approveVault(devnet, s.user, 50_000n, 100_000);
    t.clock.set(at(1799));
    await round();
    expect((await sub(s.subscriptionId)).status).toBe('past_due');
    t.clock.set(at(1800));
    await round();
    expect(await sub(s.subscriptionId)).toMatchObject({ status: 'active', next_billing_date: at(1800 + 3600) });
    expect((await pullsOf(t, s.subscriptionId))[0]).toMatchObject({ status: 'confirmed', origin: 'collector' });
  });

  it.each([
    ['unpaid', 'unpaid'],
    ['canceled', 'canceled'],
    ['past_due', 'past_due'],
  ])('after the last try the plan chooses: final_status %s', async (finalStatus, expected) => {
    t.clock.set(T0.toISOString());
    const s = await keyed({
      amountPerInterval: 5_000n,
      balance: 1n,
      plan: { retry_schedule_seconds: [60], final_status: finalStatus },
    });
    await round();
    t.clock.set(at(60));
    await round();
    expect((await sub(s.subscriptionId)).status).toBe(expected);
    expect((await pullsOf(t, s.subscriptionId)).map((p) => p.code)).toEqual([
      'insufficient_balance',
      'insufficient_balance',
    ]);
    t.clock.set(at(100_000));
    await round(); // never tried again
    expect(await pullsOf(t, s.subscriptionId)).toHaveLength(2);
  });

  it('a vault that does not match the plan ends dunning at once; a revoked allowance always cancels', async () => {
    t.clock.set(T0.toISOString());
    const mismatch = await keyed({
      amountPerInterval: 5_000n,
      vault: { amountPerInterval: 1n },
      plan: { final_status: 'unpaid' },
    });
    const revoked = await keyed({ amountPerInterval: 5_000n, plan: { final_status: 'unpaid' } });
    // The subscriber's way out: its existing allowance set to 0 (the SAC keeps the entry at 0;
    // an approve of 0 with no allowance before writes nothing).
    await approveVault(devnet, revoked.user, 0n, 1000);
    await round();
    expect((await sub(mismatch.subscriptionId)).status).toBe('unpaid');
    expect((await sub(revoked.subscriptionId)).status).toBe('canceled');
    expect((await pullsOf(t, revoked.subscriptionId)).map((p) => p.code)).toEqual(['allowance_revoked']);
  });

  it('cancel and pause are honoured by the collector and by /trigger-pull', async () => {
    t.clock.set(T0.toISOString());
    const paused = await keyed();
    const atEnd = await keyed();
    expect((await post(t.app, `/subscriptions/${paused.subscriptionId}/pause`, {})).body.subscription.status).toBe(
      'paused',
    );
    const cancel = await post(t.app, `/subscriptions/${atEnd.subscriptionId}/cancel`, { at_period_end: true });
    expect(cancel.body.subscription).toMatchObject({ status: 'active', cancel_at: at(0) });
    await round();
    expect(await pullsOf(t, paused.subscriptionId)).toEqual([]);
    expect(await pullsOf(t, atEnd.subscriptionId)).toEqual([]);
    expect((await sub(atEnd.subscriptionId)).status).toBe('canceled');
    const res = await post(t.app, '/trigger-pull', {
      subscription_id: paused.subscriptionId,
      merchant_secret: paused.merchant.secret(),
    });
    expect(res).toMatchObject({ status: 409, body: { error: 'Subscription is paused', code: 'subscription_paused' } });
    const gone = await post(t.app, '/trigger-pull', {
      subscription_id: atEnd.subscriptionId,
      merchant_secret: atEnd.merchant.secret(),
    });
    expect(gone).toMatchObject({
      status: 409,
      body: { error: 'Subscription is canceled', code: 'subscription_canceled' },
    });
    // Resume restores the status held and keeps the date: the one due cycle is collected.
    expect((await post(t.app, `/subscriptions/${paused.subscriptionId}/resume`, {})).body.subscription).toMatchObject({
      status: 'active',
      next_billing_date: at(0),
    });
    await round();
    expect((await pullsOf(t, paused.subscriptionId))[0]).toMatchObject({ status: 'confirmed' });
  });

  it('every change of status and every new warning is an event, with its actor', async () => {
    t.clock.set(T0.toISOString());
    const s = await keyed({
      amountPerInterval: 5_000n,
      balance: 1n,
      plan: { retry_schedule_seconds: [60], final_status: 'unpaid' },
    });
    await round(); // try 1 fails: past_due (and the health check warns: balance_low)
    t.clock.set(at(60));
    await round(); // try 2 fails: unpaid
    const api = as(t.app, s.key);
    await api.post(`/subscriptions/${s.subscriptionId}/pause`, {});
    await api.post(`/subscriptions/${s.subscriptionId}/resume`, {});
    await api.post(`/subscriptions/${s.subscriptionId}/cancel`, {});
    const events = (await api.get(`/events?object_id=${s.subscriptionId}`)).body.events as {
      type: string;
      actor: { type: string };
    }[];
    expect(events.map((e) => e.type).reverse()).toEqual([
      'subscription.created',
      'subscription.past_due',
      'subscription.balance_low',
      'subscription.unpaid',
      'subscription.paused',
      'subscription.resumed',
      'subscription.canceled',
    ]);
    const actorOf = (type: string) => events.find((e) => e.type === type)!.actor;
    expect(actorOf('subscription.unpaid')).toEqual({ type: 'system', job: 'collector' });
    expect(actorOf('subscription.paused')).toEqual({ type: 'api_key', id: expect.any(String) });
  });

  it('warns ahead of the due date: an allowance that will have expired, a balance too low', async () => {
    t.clock.set(T0.toISOString());
    const expiring = await keyed({ allowanceLedgers: 100 });
    const poor = await keyed({ amountPerInterval: 5_000n, balance: 1n });
    // Make both due in two days (inside the 3-day lead): collect nothing now, only warn.
    for (const s of [expiring, poor]) {
      await t.deps.db.query(`UPDATE subscriptions SET next_billing_date = $2 WHERE id = $1`, [
        s.subscriptionId,
        at(2 * 86_400),
      ]);
    }
    await round();
    expect((await sub(expiring.subscriptionId)).health).toMatchObject({
      status: 'allowance_expiring',
      detail: expect.stringMatching(/^the allowance expires at ledger \d+/),
    });
    expect((await sub(poor.subscriptionId)).health).toMatchObject({ status: 'balance_low' });
    expect(await pullsOf(t, expiring.subscriptionId)).toEqual([]);
  });
});
