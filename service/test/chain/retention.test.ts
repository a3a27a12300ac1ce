// NOT_FOUND from getTransaction also means "older than my retention window". An attempt whose
// ledgers the RPC has forgotten is never declared expired on that word: the service reads the
// source account's sequence number and the vault instead, and never charges a second time.
// The local network runs with a 5-ledger retention window, as a real RPC runs with ~7 days.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, subscriptionOf, triggerPull } from '../support/pull-fixture.ts';

const RETENTION = 5;

describe.each(TARGETS)('attempts older than the RPC retention window on %s', (target) => {
  // Each test moves ledger time ahead, so each gets a network (and an app) of its own.
  let devnet: Devnet;
  let t: TestApp;
  beforeEach(async () => {
    devnet = await startDevnet({ ledgerMs: 200, retentionLedgers: RETENTION });
    t = await startApp(target, { env: chainEnv(devnet, { TX_POLL_TIMEOUT_MS: '300' }) });
  });
  afterEach(async () => {
    await t?.close();
    await devnet?.stop();
  });

  const sequence = async () => (await devnet.control<{ sequence: number }>('/state')).sequence;

  /** Lets the window pass the attempt's ledgers, then moves ledger time past its time bound. */
  async function forget(sinceLedger: number) {
    while ((await sequence()) <= sinceLedger + RETENTION + 1) await new Promise((r) => setTimeout(r, 100));
    await devnet.control('/advance-time', { seconds: 120 });
    await devnet.control('/close-ledger', {});
    const health = await fetch(devnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    }).then((r) => r.json() as Promise<{ result: { oldestLedger: number } }>);
    expect(health.result.oldestLedger).toBeGreaterThan(sinceLedger + 1);
  }

  it('a transaction that landed while nobody looked is confirmed once, not charged again', async () => {
    const s = await setUpPull(t, devnet);
    t.clock.set('2031-08-01T00:00:00.000Z');
    await devnet.control('/pause', {});
    const first = await triggerPull(t, s.subscriptionId, s.merchant.secret()).finally(() =>
      devnet.control('/resume', {}),
    );
    expect(first.status).toBe(202);
    const sent = await sequence();
    await until(async () => (await pullsOnChain(devnet, s.merchant.publicKey()))[0]?.status === 'success');
    await forget(sent);

    const again = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.txHash).toBe(first.body.txHash);
    expect((await pullsOnChain(devnet, s.merchant.publicKey())).map((tx) => tx.status)).toEqual(['success']);
    expect(await pullsOf(t, s.subscriptionId)).toMatchObject([
      {
        tx_hash: first.body.txHash,
        status: 'confirmed',
        transferred_amount: null,
        discrepancy: expect.stringContaining("older than the RPC's history"),
      },
    ]);
    expect((await subscriptionOf(t, s.subscriptionId)).next_billing_date).toBe('2031-08-01T01:00:00.000Z');
  });

  it('a transaction that never landed is expired on the sequence number, and a new attempt collects', async () => {
    const s = await setUpPull(t, devnet);
    t.clock.set('2031-08-02T00:00:00.000Z');
    await devnet.control('/faults', { kind: 'drop' });
    const first = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(first.status).toBe(202);
    await forget(await sequence());

    const again = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.txHash).not.toBe(first.body.txHash);
    expect((await pullsOnChain(devnet, s.merchant.publicKey())).map((tx) => tx.status)).toEqual(['dropped', 'success']);
    expect(await pullsOf(t, s.subscriptionId)).toMatchObject([
      { tx_hash: again.body.txHash, status: 'confirmed' },
      { tx_hash: first.body.txHash, status: 'expired', error: expect.stringContaining("account's sequence") },
    ]);
  });
});

async function until(check: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
