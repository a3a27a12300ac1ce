// The service against the real network's rules as the local network now models them (issue 10),
// over real JSON-RPC on both databases: the merchant's side of a token transfer named as the
// merchant's problem, and a vault its subscriber cancelled.
import { Address } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnvFor, startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { pino } from 'pino';
import { startCollector } from '../../src/jobs/collector.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, subscriptionOf, triggerPull } from '../support/pull-fixture.ts';
import { invoke, newFundedAccount } from '../support/subscriber.ts';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 500, vaultBuild: 'extended' });
});
afterAll(() => devnet?.stop());

describe.each(TARGETS)('network rules on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // A database of its own: the collector rounds below take every due row of their database, and
    // other suites' rows (listing-indexes.test.ts writes made-up wallets) are not theirs to collect.
    t = await startApp(target, { env: { ...(await isolatedEnvFor(target)), ...chainEnv(devnet), ...accountsEnv() } });
  });
  afterAll(() => t?.close());

  async function refused(s: Awaited<ReturnType<typeof setUpPull>>) {
    const before = await subscriptionOf(t, s.subscriptionId);
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(500);
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toEqual([]);
    expect(await subscriptionOf(t, s.subscriptionId)).toEqual(before);
    return res.body as { error: string; code: string };
  }

  it('a merchant without a trustline for the token: merchant_trustline_missing, the merchant told what to do', async () => {
    const merchant = await newFundedAccount(devnet);
    await devnet.control('/trustline', { account: merchant.publicKey(), remove: true });
    const body = await refused(await setUpPull(t, devnet, { merchant }));
    expect(body.code).toBe('merchant_trustline_missing');
    expect(body.error).toMatch(
      new RegExp(
        `^Merchant cannot receive the token: the merchant's account ${merchant.publicKey()} has no trustline for the token: add one: HostError: Error\\(Contract, #13\\)`,
      ),
    );
  });

  it("a merchant over its trustline limit: merchant_over_limit, not the subscriber's balance", async () => {
    const merchant = await newFundedAccount(devnet);
    await devnet.control('/trustline', { account: merchant.publicKey(), limit: '150' });
    const body = await refused(await setUpPull(t, devnet, { merchant, amountPerInterval: 200n }));
    expect(body.code).toBe('merchant_over_limit');
    expect(body.error).toMatch(
      /^Merchant cannot receive the token: the payment would take the merchant's trustline over its limit \(150\): raise the limit or move funds out: HostError: Error\(Contract, #10\)/,
    );
  });

  it('a merchant whose trustline the issuer has not authorized: merchant_not_authorized', async () => {
    const merchant = await newFundedAccount(devnet);
    await devnet.control('/trustline', { account: merchant.publicKey(), authorized: false });
    const body = await refused(await setUpPull(t, devnet, { merchant }));
    expect(body.code).toBe('merchant_not_authorized');
    expect(body.error).toMatch(
      /^Merchant cannot receive the token: the token's issuer has not authorized the merchant's trustline/,
    );
  });

  it('the subscriber short of balance is still insufficient_balance', async () => {
    const body = await refused(await setUpPull(t, devnet, { amountPerInterval: 5_000n, balance: 1n }));
    expect(body.code).toBe('insufficient_balance');
  });

  it('the collector meets a cancelled vault before any pull (pre-flight): the subscriber left, canceled at once', async () => {
    const wallet = await newFundedAccount(devnet);
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    expect(
      (await as(t.app, key).put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() })).status,
    ).toBe(200);
    // final_status unpaid: a cancelled vault must still end canceled, whatever the plan chooses.
    const s = await setUpPull(t, devnet, {
      merchant: wallet,
      merchantId: merchant.id,
      plan: { final_status: 'unpaid' },
    });
    await invoke(devnet, s.user, devnet.contracts.vault, 'cancel_vault', [
      new Address(s.user.publicKey()).toScVal(),
      new Address(wallet.publicKey()).toScVal(),
    ]);
    const collector = startCollector(t.deps.collection, {
      intervalMs: 1000,
      concurrency: 1,
      log: pino({ level: 'silent' }),
      autoStart: false,
    });
    await collector.runOnce();
    await collector.stop();
    expect((await subscriptionOf(t, s.subscriptionId)).status).toBe('canceled');
    const [skipped] = await pullsOf(t, s.subscriptionId);
    expect(skipped).toMatchObject({
      status: 'skipped',
      code: 'vault_missing',
      error: expect.stringMatching(/^Vault does not exist: the subscriber cancelled it \(cancel_vault in ledger \d+\)/),
    });
    expect(await pullsOnChain(devnet, wallet.publicKey())).toEqual([]);
  });

  it('a vault its subscriber cancelled: vault_missing, saying so', async () => {
    const s = await setUpPull(t, devnet);
    await invoke(devnet, s.user, devnet.contracts.vault, 'cancel_vault', [
      new Address(s.user.publicKey()).toScVal(),
      new Address(s.merchant.publicKey()).toScVal(),
    ]);
    const body = await refused(s);
    expect(body.code).toBe('vault_missing');
    expect(body.error).toMatch(
      /^Vault does not exist: the subscriber cancelled it \(cancel_vault in ledger \d+\): HostError: Error\(WasmVm, InvalidAction\)/,
    );
  });
});
