// Pull events over the local Soroban network: a real pull's pull.pending and pull.succeeded carry
// the pull as the history shows it (tx_hash included); an on-chain failure is pull.failed and
// subscription.past_due; and /trigger-pull with an Idempotency-Key never sends a second
// transaction, however often it is retried. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull } from '../support/pull-fixture.ts';
import { newFundedAccount } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 1000 });
});
afterAll(() => devnet?.stop());

describe.each(TARGETS)('pull events on the local network, %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: { ...chainEnv(devnet), ...accountsEnv() } });
  });
  afterAll(() => t?.close());

  async function keyedPull() {
    const wallet = await newFundedAccount(devnet);
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    const s = await setUpPull(t, devnet, { merchant: wallet, merchantId: merchant.id });
    return { ...s, key, api: as(t.app, key) };
  }

  it('a confirmed pull: pull.pending then pull.succeeded, each with the pull as the history shows it', async () => {
    const s = await keyedPull();
    t.clock.set('2033-01-01T00:00:00.000Z');
    const res = await s.api.post('/trigger-pull', {
      subscription_id: s.subscriptionId,
      merchant_secret: s.merchant.secret(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [pull] = await pullsOf(t, s.subscriptionId);
    const events = (await s.api.get(`/events?object_id=${(pull as unknown as { id: string }).id}`)).body.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['pull.succeeded', 'pull.pending']);
    expect(events[0].data.object).toEqual(pull);
    expect(events[0].data.object.tx_hash).toBe(res.body.txHash);
    expect(events[1].data.object).toMatchObject({ status: 'pending', tx_hash: res.body.txHash, resolved_at: null });
  });

  it('/trigger-pull retried with one Idempotency-Key sends one transaction and replays its answer', async () => {
    const s = await keyedPull();
    t.clock.set('2033-02-01T00:00:00.000Z');
    const body = { subscription_id: s.subscriptionId, merchant_secret: s.merchant.secret() };
    const headers = { 'idempotency-key': `pull-${s.subscriptionId}` };
    const first = await s.api.send('POST', '/trigger-pull', body, headers);
    expect(first.status).toBe(200);
    t.clock.advance(7200); // due again: without the key, a retry would collect another cycle
    const again = await s.api.send('POST', '/trigger-pull', body, headers);
    expect(again).toMatchObject({ status: 200, body: first.body, headers: { 'idempotent-replayed': 'true' } });
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(1);
  });
});
