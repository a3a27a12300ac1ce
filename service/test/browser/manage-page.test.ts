// Subscriber self-service in headless Chromium against the service and the local network: the
// local test wallet checks out two plans in the same token (the second approve keeps what the
// first allowed), then /manage, signed by the wallet, shows both with the allowance left; "stop
// paying" sets the allowance to 0 on chain (a pull is then refused as allowance_revoked) and
// "renew" approves again. Screenshots go to docs/screenshots/; axe-core checks each view.
import { rpc } from '@stellar/stellar-sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllowance } from '../../src/chain/allowance-state.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { expectAccessible, HAS_CHROMIUM, launch, openPage, screenshot } from '../support/browser.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { createMerchant, createPlan, get } from '../support/factories.ts';
import { chainEnv, triggerPull } from '../support/pull-fixture.ts';
import { newFundedAccount } from '../support/subscriber.ts';

const MONTH = 2_592_000;

describe.skipIf(!HAS_CHROMIUM)('manage page in headless Chromium', () => {
  let devnet: Devnet;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    devnet = await startDevnet({ ledgerMs: 200 });
    t = await startApp('pglite', { env: chainEnv(devnet) });
    // The signed message's time is checked against the service's clock.
    t.clock.set(new Date());
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await devnet?.stop();
  });

  async function checkout(page: Page, planId: string, cycles: number) {
    await page.goto(`${base}/checkout/${planId}`);
    await page.getByTestId('price').waitFor({ timeout: 20_000 });
    await page.getByLabel(/Number of payments/).fill(String(cycles));
    await page.getByRole('button', { name: 'Subscribe with the local test wallet' }).click();
    await expect
      .poll(() => page.getByTestId('status').getAttribute('data-step'), { timeout: 60_000 })
      .toBe('confirmed');
    return (await page.getByTestId('status').innerText()).match(/Wallet: (G[A-Z2-7]{55})/)![1];
  }

  it('shows the wallet’s subscriptions and allowance, stops paying and renews', async () => {
    const merchants = [];
    for (const [name, amount] of [
      ['Acme Streaming', 10_000_000],
      ['Bolt Storage', 20_000_000],
    ] as const) {
      const wallet = await newFundedAccount(devnet);
      const m = await createMerchant(t.app, { name, wallet_address: wallet.publicKey() });
      const plan = await createPlan(t.app, m.id, {
        name: `${name} monthly`,
        token_amount: amount,
        interval_seconds: MONTH,
        token_contract_id: devnet.contracts.token,
      });
      merchants.push({ wallet, merchant: m, plan });
    }
    const { page, outside, errors } = await openPage(browser, 'phone');
    const address = await checkout(page, merchants[0].plan.id, 2);
    expect(await checkout(page, merchants[1].plan.id, 2)).toBe(address);
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const allowance = () => readAllowance(server, devnet.contracts.token, address, devnet.contracts.vault);
    // 2 × 1 + 2 × 2 tokens: the second checkout kept the first one's allowance.
    expect((await allowance())?.amount).toBe(60_000_000n);

    await page.goto(`${base}/manage`);
    await screenshot(page, 'manage-connect');
    await expectAccessible(page, 'manage, connect');
    await page.getByRole('button', { name: 'Use the local test wallet' }).click();
    const group = page.getByTestId('token-group');
    await group.waitFor({ timeout: 30_000 });
    const text = await group.innerText();
    expect(text).toContain('Acme Streaming');
    expect(text).toContain('Bolt Storage');
    expect(await page.getByTestId('allowance-left').innerText()).toContain(
      'Allowance left: 6 USDC (about 2 more cycles)',
    );
    await screenshot(page, 'manage');
    await expectAccessible(page, 'manage, subscriptions listed');

    await page.getByRole('button', { name: 'Stop paying in USDC' }).click();
    await expect
      .poll(() => page.getByTestId('manage-status').innerText(), { timeout: 60_000 })
      .toContain('stop paying: allowance to 0: confirmed on chain');
    expect((await allowance())?.amount).toBe(0n);
    expect(await page.getByTestId('allowance-left').innerText()).toContain('Allowance left: 0 USDC');
    // The service sees the subscriber left: the pull is refused before anything is sent.
    const subs = (await get(t.app, `/merchants/${merchants[0].merchant.id}/subscriptions`)).body.subscriptions;
    const refused = await triggerPull(t, subs[0].id, merchants[0].wallet.secret());
    expect(refused.body).toMatchObject({ code: 'allowance_revoked' });

    await page.getByRole('button', { name: /^Renew for/ }).click();
    await expect.poll(() => page.getByTestId('manage-status').innerText(), { timeout: 60_000 }).toContain('renew');
    await expect
      .poll(() => page.getByTestId('manage-status').innerText(), { timeout: 60_000 })
      .toContain('confirmed on chain');
    // Six payments of each (within 180 days of monthly cycles): 6 × 3 tokens.
    expect((await allowance())?.amount).toBe(180_000_000n);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);
});
