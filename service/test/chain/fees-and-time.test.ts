// The service against the local network's fee, time-bound, archival and fee-bump rules (taken from
// stellar-core and rs-soroban-env; devnet/README.md names the sources), over real JSON-RPC on both
// databases. Each test gets a network of its own: they congest it or move its time.
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet, type DevnetOptions } from '../support/devnet.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, subscriptionOf, triggerPull } from '../support/pull-fixture.ts';
import { newFundedAccount } from '../support/subscriber.ts';

describe.each(TARGETS)('fees, time bounds, archival and fee bumps on %s', (target) => {
  let devnet: Devnet | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    await devnet?.stop();
    t = undefined;
    devnet = undefined;
  });

  async function network(o: DevnetOptions, env: Record<string, string> = {}) {
    devnet = await startDevnet({ ledgerMs: 300, ...o });
    t = await startApp(target, { env: chainEnv(devnet, env) });
    return { net: devnet, app: t };
  }

  it('under congestion the bid rises to what the network wants and the pull lands', async () => {
    const { net, app } = await network({ extraArgs: ['--ledger-max-tx-count', '3'] });
    const s = await setUpPull(app, net);
    await net.control('/congestion', { ledgers: 20, fee: 10_000 });
    app.clock.set('2035-01-01T00:00:00.000Z');
    const res = await triggerPull(app, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const history = await pullsOf(app, s.subscriptionId);
    expect(history[0]).toMatchObject({ tx_hash: res.body.txHash, status: 'confirmed' });
    // Any bid the network refused first is recorded as its own attempt, never re-sent.
    for (const refused of history.slice(1)) expect(refused.status).toBe('rejected');
    expect(history[0]!.fee_charged! > 10_000).toBe(true);
  });

  it('an inclusion fee above MAX_INCLUSION_FEE: fee_too_high, nothing included', async () => {
    const { net, app } = await network({ extraArgs: ['--ledger-max-tx-count', '3'] }, { MAX_INCLUSION_FEE: '5000' });
    const s = await setUpPull(app, net);
    await net.control('/congestion', { ledgers: 20, fee: 10_000 });
    const res = await triggerPull(app, s.subscriptionId, s.merchant.secret());
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('fee_too_high');
    expect((await pullsOnChain(net, s.merchant.publicKey())).filter((tx) => tx.status === 'success')).toEqual([]);
  });

  it('ledger time moved ahead by days: the time bound follows the network, the pull is accepted', async () => {
    const { net, app } = await network({});
    const s = await setUpPull(app, net);
    await net.control('/advance-time', { seconds: 3 * 86_400 });
    await net.control('/close-ledger', {});
    app.clock.set('2035-02-01T00:00:00.000Z');
    const res = await triggerPull(app, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('a first send built on a stale view of ledger time is refused txTOO_LATE and rebuilt, never re-sent', async () => {
    const { net, app } = await network({});
    const first = await setUpPull(app, net, { intervalSeconds: 60 });
    app.clock.set('2035-03-01T00:00:00.000Z');
    expect((await triggerPull(app, first.subscriptionId, first.merchant.secret())).status).toBe(200);
    // The service has seen the network's time; now ledger time jumps a day without it knowing.
    await net.control('/advance-time', { seconds: 86_400 });
    await net.control('/close-ledger', {});
    const s = await setUpPull(app, net, { merchant: first.merchant, merchantId: first.merchantId });
    const res = await triggerPull(app, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const history = await pullsOf(app, s.subscriptionId);
    expect(history.map((p) => [p.status, p.error])).toEqual([
      ['confirmed', null],
      ['rejected', 'sendTransaction answered ERROR: txTooLate'],
    ]);
  });

  it('a vault archived by its TTL is pulled without help (restored in the same transaction, at a higher fee)', async () => {
    const { net, app } = await network({ extraArgs: ['--min-persistent-ttl', '10'] });
    const normal = await setUpPull(app, net);
    app.clock.set('2035-04-01T00:00:00.000Z');
    expect((await triggerPull(app, normal.subscriptionId, normal.merchant.secret())).status).toBe(200);
    const archived = await setUpPull(app, net);
    await net.control('/advance-ledgers', { count: 12 });
    const res = await triggerPull(app, archived.subscriptionId, archived.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [pull] = await pullsOf(app, archived.subscriptionId);
    const [plain] = await pullsOf(app, normal.subscriptionId);
    expect(pull!.fee_charged! > plain!.fee_charged!).toBe(true);
    expect((await subscriptionOf(app, archived.subscriptionId)).next_billing_date).toBe('2035-04-01T01:00:00.000Z');
  });

  it('FEE_SOURCE_SECRET: the pull travels in a fee bump the fee source pays; both hashes recorded', async () => {
    devnet = await startDevnet({ ledgerMs: 300 });
    const feeSource = await newFundedAccount(devnet);
    t = await startApp(target, { env: chainEnv(devnet, { FEE_SOURCE_SECRET: feeSource.secret() }) });
    const s = await setUpPull(t, devnet);
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [pull] = await pullsOf(t, s.subscriptionId);
    expect(pull).toMatchObject({ tx_hash: res.body.txHash, inner_tx_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(pull!.inner_tx_hash).not.toBe(res.body.txHash);
    const [onChain] = await pullsOnChain(devnet, s.merchant.publicKey());
    expect(onChain).toMatchObject({
      status: 'success',
      feeBump: { feeSource: feeSource.publicKey(), innerHash: pull!.inner_tx_hash },
    });
  });
});
