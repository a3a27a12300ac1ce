// Channel accounts (issue 14) over the local network, on PGlite and PostgreSQL, ledgers closed by
// the test: 100 due subscriptions of one merchant pulled at once through 100 channels are all
// queued and then included in ONE ledger; a fund account's fee bump pays for a channel's pull; the
// merchant's own account is never a source once channels exist.
import type { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnvFor, startApp, TARGETS, type TestApp } from '../support/app.ts';
import { addChannels, closeLedgersEvery, until, xlmBalance } from '../support/channels.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { createMerchant, createPlan, createSubscription } from '../support/factories.ts';
import { accountsEnv } from '../support/keys.ts';
import { chainEnv, pullsOf, triggerPull } from '../support/pull-fixture.ts';
import { newFundedAccount, setUpSubscriber } from '../support/subscriber.ts';

const N = 100;

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 0 });
});
afterAll(() => devnet?.stop());

describe.each(TARGETS)('channel accounts on %s', (target) => {
  let t: TestApp;
  const feeSource = { publicKey: '', secret: '' };
  beforeAll(async () => {
    const fund = await newFundedAccount(devnet);
    feeSource.publicKey = fund.publicKey();
    feeSource.secret = fund.secret();
    t = await startApp(target, {
      env: {
        ...chainEnv(devnet, { TX_POLL_TIMEOUT_MS: '120000', TX_POLL_INTERVAL_MS: '500' }),
        ...accountsEnv(),
        ...(await isolatedEnvFor(target)),
        DB_POOL_SIZE: '10',
      },
    });
  }, 120_000);
  afterAll(() => t?.close());

  it(`${N} due subscriptions of one merchant: all queued at once, then included in one ledger`, async () => {
    const merchant = await newFundedAccount(devnet);
    const merchantId = (await createMerchant(t.app, { wallet_address: merchant.publicKey() })).id;
    const plan = await createPlan(t.app, merchantId, { token_amount: 10_000_000, interval_seconds: 3600 });
    const stop = closeLedgersEvery(devnet);
    const channels = await addChannels(t, devnet, N);
    const subs: string[] = [];
    try {
      for (let i = 0; i < N; i += 25) {
        const users = await Promise.all(
          Array.from({ length: Math.min(25, N - i) }, () =>
            setUpSubscriber(devnet, merchant.publicKey(), { amountPerInterval: 10_000_000n, intervalSeconds: 3600n }),
          ),
        );
        for (const u of users) subs.push((await createSubscription(t.app, plan.id, u.publicKey())).id);
      }
    } finally {
      await stop();
    }
    t.clock.set('2032-01-01T00:00:00.000Z');
    const before = (await devnet.control<{ sequence: number }>('/state')).sequence;
    const answers = Promise.all(subs.map((id) => triggerPull(t, id, merchant.secret())));
    // No ledger closes until every pull is in the network's queue.
    const queued = async () =>
      (await devnet.transactions()).filter(
        (tx) => tx.function === 'pull_funds' && tx.status === 'queued' && channels.includes(tx.source),
      );
    await until(`${N} pulls queued`, async () => (await queued()).length === N, 120_000);
    expect((await devnet.control<{ sequence: number }>('/state')).sequence).toBe(before);
    const { sequence } = await devnet.control<{ sequence: number }>('/close-ledger', {});
    const replies = await answers;
    expect(replies.map((r) => r.status)).toEqual(Array(N).fill(200));
    const onChain = (await devnet.transactions()).filter(
      (tx) => tx.function === 'pull_funds' && replies.some((r) => r.body.txHash === tx.hash),
    );
    expect(onChain).toHaveLength(N);
    expect(new Set(onChain.map((tx) => tx.ledger))).toEqual(new Set([sequence]));
    expect(onChain.every((tx) => tx.status === 'success')).toBe(true);
    expect(new Set(onChain.map((tx) => tx.source)).size).toBe(N);
    expect(onChain.some((tx) => tx.source === merchant.publicKey())).toBe(false);
    // Every lease ended with its confirmation.
    expect(await t.deps.repos.channels.counts()).toEqual({ total: N, leased: 0 });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/billing_channels_free \d+/);
    expect(metrics.body).toMatch(new RegExp(`billing_pulls_in_latest_ledger ${N}`));
    expect(metrics.body).toMatch(/billing_pull_fee_stroops_total\{source="channel"\} [1-9]/);
  }, 300_000);
});

describe.each(TARGETS)('channel pulls fee-bumped by a fund account on %s', (target) => {
  let t: TestApp;
  let fund: { publicKey(): string; secret(): string };
  beforeAll(async () => {
    fund = await newFundedAccount(devnet);
    t = await startApp(target, {
      env: {
        ...chainEnv(devnet, { TX_POLL_TIMEOUT_MS: '20000' }),
        ...accountsEnv(),
        ...(await isolatedEnvFor(target)),
        FEE_SOURCE_SECRET: fund.secret(),
      },
    });
  });
  afterAll(() => t?.close());

  it('the envelope is a fee bump: accepted, charged to the fund account, the outer hash answered, the inner stored', async () => {
    const stop = closeLedgersEvery(devnet);
    let sub: string;
    let merchant: Keypair;
    let channel: string;
    let user: Keypair;
    try {
      merchant = await newFundedAccount(devnet);
      const merchantId = (await createMerchant(t.app, { wallet_address: merchant.publicKey() })).id;
      const plan = await createPlan(t.app, merchantId, { token_amount: 10_000_000, interval_seconds: 3600 });
      user = await setUpSubscriber(devnet, merchant.publicKey(), {
        amountPerInterval: 10_000_000n,
        intervalSeconds: 3600n,
      });
      sub = (await createSubscription(t.app, plan.id, user.publicKey())).id;
      [channel] = await addChannels(t, devnet, 1);
    } finally {
      await stop();
    }
    const [fundBefore, channelBefore, merchantBefore] = await Promise.all([
      xlmBalance(devnet, fund.publicKey()),
      xlmBalance(devnet, channel),
      xlmBalance(devnet, merchant.publicKey()),
    ]);
    t.clock.set('2032-01-01T00:00:00.000Z');
    const answer = triggerPull(t, sub, merchant.secret());
    await until('the pull queued', async () =>
      (await devnet.transactions()).some(
        (tx) => tx.function === 'pull_funds' && tx.source === channel && tx.status === 'queued',
      ),
    );
    await devnet.control('/close-ledger', {});
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tx = (await devnet.transactions()).find((x) => x.hash === res.body.txHash);
    expect(tx).toMatchObject({ status: 'success', source: channel, feeBump: { feeSource: fund.publicKey() } });
    const [pull] = await pullsOf(t, sub);
    expect(pull).toMatchObject({
      status: 'confirmed',
      tx_hash: res.body.txHash,
      inner_tx_hash: tx!.feeBump!.innerHash,
    });
    expect(pull.fee_charged).toBeGreaterThan(0);
    expect(await xlmBalance(devnet, fund.publicKey())).toBe(fundBefore - BigInt(pull.fee_charged!));
    expect(await xlmBalance(devnet, channel)).toBe(channelBefore);
    expect(await xlmBalance(devnet, merchant.publicKey())).toBe(merchantBefore);
  }, 120_000);
});

describe.each(TARGETS)('channel exhaustion and /ready on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, {
      env: {
        ...chainEnv(devnet, { TX_POLL_TIMEOUT_MS: '20000' }),
        ...accountsEnv(),
        ...(await isolatedEnvFor(target)),
        MERCHANT_QUEUE_WAIT_MS: '60000',
      },
    });
  });
  afterAll(() => t?.close());

  it('no channel free for longer than a ledger: /ready says so, the pull waits, then goes through the freed channel', async () => {
    const stop = closeLedgersEvery(devnet);
    let sub: string;
    let merchant: Keypair;
    try {
      merchant = await newFundedAccount(devnet);
      const merchantId = (await createMerchant(t.app, { wallet_address: merchant.publicKey() })).id;
      const plan = await createPlan(t.app, merchantId, { token_amount: 10_000_000, interval_seconds: 3600 });
      const user = await setUpSubscriber(devnet, merchant.publicKey(), {
        amountPerInterval: 10_000_000n,
        intervalSeconds: 3600n,
      });
      sub = (await createSubscription(t.app, plan.id, user.publicKey())).id;
      await addChannels(t, devnet, 1);
    } finally {
      await stop();
    }
    const ready = async () => (await t.app.inject({ method: 'GET', url: '/ready' })).json();
    expect((await ready()).channels).toEqual({ total: 1, leased: 0, free: 1 });
    // Someone else holds the only channel (a lease far in the network's future).
    const held = await t.deps.repos.channels.lease({ holder: 'test', leaseMaxTime: 4_000_000_000, lapsedBefore: 0 });
    expect(held).toBeDefined();
    t.clock.set('2032-01-01T00:00:00.000Z');
    const answer = triggerPull(t, sub, merchant.secret());
    await until('/ready to warn', async () => typeof (await ready()).channels?.warning === 'string', 20_000);
    const body = await ready();
    expect(body).toMatchObject({
      status: 'ready',
      channels: { total: 1, leased: 1, free: 0, warning: expect.stringContaining('longer than a ledger') },
    });
    expect((await devnet.transactions()).filter((tx) => tx.source === held!.publicKey)).toHaveLength(0);
    await t.deps.repos.channels.release(held!.id, 'test');
    await until('the pull queued', async () =>
      (await devnet.transactions()).some((tx) => tx.source === held!.publicKey && tx.status === 'queued'),
    );
    await devnet.control('/close-ledger', {});
    expect((await answer).status).toBe(200);
    expect((await ready()).channels).toEqual({ total: 1, leased: 0, free: 1 });
  }, 120_000);
});
