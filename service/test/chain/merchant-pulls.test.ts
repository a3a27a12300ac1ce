// GET /merchants/{id}/pulls and /merchants/{id}/pulls/daily-totals: a merchant's pulls across its
// subscriptions, paged by cursor and filtered, and the confirmed amounts per UTC day, from real
// pulls on the local network, on both databases. Another merchant's key sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { get } from '../support/factories.ts';
import { accountsEnv, merchantWithKey, as } from '../support/keys.ts';
import { chainEnv, setUpPull, triggerPull } from '../support/pull-fixture.ts';
import { newFundedAccount } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 200 });
});
afterAll(() => devnet?.stop());

describe.each(TARGETS)('merchant pulls on %s', (target) => {
  let t: TestApp;
  let merchantId: string;
  let key: string;
  const hashes: string[] = [];
  beforeAll(async () => {
    t = await startApp(target, { env: { ...chainEnv(devnet), ...accountsEnv() } });
    const merchant = await newFundedAccount(devnet);
    const made = await merchantWithKey(t.app, merchant.publicKey());
    merchantId = made.merchant.id;
    key = made.key;
    t.clock.set('2031-05-01T10:00:00.000Z');
    // Three subscriptions, one pull each: two on 1 May, one on 2 May.
    for (const [i, at] of [
      '2031-05-01T10:00:00.000Z',
      '2031-05-01T11:00:00.000Z',
      '2031-05-02T09:00:00.000Z',
    ].entries()) {
      t.clock.set(at);
      const s = await setUpPull(t, devnet, { merchant, merchantId, amountPerInterval: BigInt(1_000 * (i + 1)) });
      const res = await triggerPull(t, s.subscriptionId, merchant.secret());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      hashes.push(res.body.txHash);
    }
  }, 60_000);
  afterAll(() => t?.close());

  it('lists every pull oldest first, with transaction hashes, one page at a time', async () => {
    const first = await get(t.app, `/merchants/${merchantId}/pulls?limit=2`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.pulls.map((p: { tx_hash: string }) => p.tx_hash)).toEqual(hashes.slice(0, 2));
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await get(
      t.app,
      `/merchants/${merchantId}/pulls?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(second.body.pulls.map((p: { tx_hash: string }) => p.tx_hash)).toEqual(hashes.slice(2));
    expect(second.body.next_cursor).toBeNull();
    expect(second.body.pulls[0]).toMatchObject({ status: 'confirmed', amount: 3000, transferred_amount: 3000 });
  });

  it('filters by from, to and status', async () => {
    const may2 = await get(t.app, `/merchants/${merchantId}/pulls?from=2031-05-02T00:00:00Z`);
    expect(may2.body.pulls.map((p: { tx_hash: string }) => p.tx_hash)).toEqual([hashes[2]]);
    const may1 = await get(
      t.app,
      `/merchants/${merchantId}/pulls?from=2031-05-01T00:00:00Z&to=2031-05-02T00:00:00Z&status=confirmed`,
    );
    expect(may1.body.pulls).toHaveLength(2);
    expect((await get(t.app, `/merchants/${merchantId}/pulls?status=failed`)).body.pulls).toEqual([]);
    const backwards = await get(
      t.app,
      `/merchants/${merchantId}/pulls?from=2031-05-02T00:00:00Z&to=2031-05-01T00:00:00Z`,
    );
    expect(backwards).toEqual({ status: 400, body: { error: 'Invalid input on to: to must be later than from' } });
    const badStatus = await get(t.app, `/merchants/${merchantId}/pulls?status=paid`);
    expect(badStatus.status).toBe(400);
  });

  it('totals confirmed pulls per UTC day', async () => {
    const res = await get(
      t.app,
      `/merchants/${merchantId}/pulls/daily-totals?from=2031-04-30T00:00:00Z&to=2031-05-03T00:00:00Z`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      from: '2031-04-30T00:00:00.000Z',
      to: '2031-05-03T00:00:00.000Z',
      days: [
        { date: '2031-05-01', token_contract_id: devnet.contracts.token, amount: 3000, pulls: 2 },
        { date: '2031-05-02', token_contract_id: devnet.contracts.token, amount: 3000, pulls: 1 },
      ],
    });
    // Default window: the 30 days before the clock's now.
    t.clock.set('2031-05-02T12:00:00.000Z');
    const recent = await get(t.app, `/merchants/${merchantId}/pulls/daily-totals`);
    expect(recent.body.days).toHaveLength(2);
    const tooLong = await get(
      t.app,
      `/merchants/${merchantId}/pulls/daily-totals?from=2030-01-01T00:00:00Z&to=2031-05-03T00:00:00Z`,
    );
    expect(tooLong).toEqual({ status: 400, body: { error: 'Invalid input on from: the window is at most 366 days' } });
  });

  it("a merchant key sees its own pulls; another merchant's key sees 404", async () => {
    expect((await as(t.app, key).get(`/merchants/${merchantId}/pulls`)).body.pulls).toHaveLength(3);
    const other = (await merchantWithKey(t.app)).key;
    for (const path of ['pulls', 'pulls/daily-totals']) {
      const res = await as(t.app, other).get(`/merchants/${merchantId}/${path}`);
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { error: 'Merchant not found' } });
    }
    expect((await get(t.app, `/merchants/${crypto.randomUUID()}/pulls`)).status).toBe(404);
  });
});
