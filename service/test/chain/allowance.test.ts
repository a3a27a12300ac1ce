// #9 from the token reads the same on chain for an allowance that is too small, expired or
// revoked. The service tells them apart from the allowance entry (the SAC's temporary
// Allowance{from, spender} entry) and, for an entry that is gone, from evidence that one was live.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { chainEnv, setUpPull, triggerPull, type PullSetup } from '../support/pull-fixture.ts';
import { approveVault } from '../support/subscriber.ts';

describe.each(TARGETS)('allowance causes on %s', (target) => {
  // These tests move ledger time: a network (and an app) each.
  let devnet: Devnet;
  let t: TestApp;
  beforeEach(async () => {
    devnet = await startDevnet({ ledgerMs: 200 });
    t = await startApp(target, { env: chainEnv(devnet) });
  });
  afterEach(async () => {
    await t?.close();
    await devnet?.stop();
  });

  /** Collects the first cycle, then makes the next one due for the service and the ledger. */
  async function collectOnce(s: PullSetup) {
    t.clock.set('2031-10-01T00:00:00.000Z');
    expect((await triggerPull(t, s.subscriptionId, s.merchant.secret())).status).toBe(200);
    t.clock.set('2031-10-01T02:00:00.000Z');
    await devnet.control('/advance-time', { seconds: s.intervalSeconds + 1 });
    await devnet.control('/close-ledger', {});
  }

  it('a revoked allowance (approve to 0) is allowance_revoked', async () => {
    const s = await setUpPull(t, devnet);
    await collectOnce(s);
    await approveVault(devnet, s.user, 0n, 1000);
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('allowance_revoked');
    expect(res.body.error).toMatch(
      /^Insufficient allowance: the subscriber revoked the allowance \(set to 0\): HostError: Error\(Contract, #9\)/,
    );
  });

  it('an allowance past its live_until_ledger is allowance_expired', async () => {
    const s = await setUpPull(t, devnet, { allowanceLedgers: 30 });
    await collectOnce(s);
    const { sequence } = await devnet.control<{ sequence: number }>('/state');
    while ((await devnet.control<{ sequence: number }>('/state')).sequence < sequence + 31)
      await devnet.control('/close-ledger', {});
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('allowance_expired');
    expect(res.body.error).toMatch(
      /^Insufficient allowance: the allowance (expired at ledger \d+|has expired \(no allowance entry is left, and an earlier pull succeeded\)): HostError/,
    );
  });

  it('a live allowance that is too small stays insufficient_allowance', async () => {
    const s = await setUpPull(t, devnet, { amountPerInterval: 5_000n, allowance: 4_999n });
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('insufficient_allowance');
    expect(res.body.error).toMatch(/^Insufficient allowance: HostError: Error\(Contract, #9\)/);
  });
});
