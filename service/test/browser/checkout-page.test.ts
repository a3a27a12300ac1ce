// The hosted checkout in headless Chromium against the service and the local network: a
// subscriber completes checkout with the local test wallet (vault and allowance on chain with the
// plan's terms, the subscription recorded); a wallet on the wrong network and a refused signature
// each show their message and create nothing; a plan that cannot be checked out says why and
// offers nothing to sign; Freighter (a stand-in for the extension, holding a test key) checks out
// and then signs in to /manage. Screenshots go to docs/screenshots/; axe-core checks every state shown.
import { rpc } from '@stellar/stellar-sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllowance } from '../../src/chain/allowance-state.ts';
import { readVault } from '../../src/chain/vault-state.ts';
import { startApp, type TestApp } from '../support/app.ts';
import {
  expectAccessible,
  fakeFreighter,
  HAS_CHROMIUM,
  launch,
  openPage,
  screenshot,
  withFreighter,
} from '../support/browser.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { createMerchant, createPlan, get } from '../support/factories.ts';
import { chainEnv } from '../support/pull-fixture.ts';
import { newFundedAccount } from '../support/subscriber.ts';

const AMOUNT = 25_000_000; // 2.5 tokens of 7 decimals
const MONTH = 2_592_000;

describe.skipIf(!HAS_CHROMIUM)('checkout page in headless Chromium', () => {
  let devnet: Devnet;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    devnet = await startDevnet({ ledgerMs: 200 });
    t = await startApp('pglite', { env: chainEnv(devnet) });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await devnet?.stop();
  });

  async function merchantPlan(over: Record<string, unknown> = {}) {
    const wallet = await newFundedAccount(devnet);
    const merchant = await createMerchant(t.app, { name: 'Acme Streaming', wallet_address: wallet.publicKey() });
    const plan = await createPlan(t.app, merchant.id, {
      name: 'Premium monthly',
      token_amount: AMOUNT,
      interval_seconds: MONTH,
      token_contract_id: devnet.contracts.token,
      ...over,
    });
    return { wallet, merchant, plan };
  }

  const subscriptionsOf = async (merchantId: string) =>
    (await get(t.app, `/merchants/${merchantId}/subscriptions`)).body.subscriptions as {
      id: string;
      customer_wallet_address: string;
      plan_id: string;
      status: string;
    }[];

  it('a subscriber checks out with the local test wallet: vault, allowance and subscription exist', async () => {
    const { wallet, merchant, plan } = await merchantPlan();
    const { page, outside, errors } = await openPage(browser);
    const res = await page.goto(`${base}/checkout/${plan.id}`);
    // Only the service's own scripts, no framing (the page is a signing prompt).
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ${new URL(devnet.rpcUrl).origin}`);
    await expect.poll(() => page.getByTestId('price').innerText(), { timeout: 20_000 }).toMatch(/^2\.5 /);
    const body = await page.locator('main').innerText();
    expect(body).toContain('Acme Streaming');
    expect(body).toContain('Premium monthly');
    expect(body).toContain('every month');
    // Monthly: six cycles fit in the network's maximum entry lifetime (about 180 days).
    expect(await page.getByLabel(/Number of payments/).getAttribute('max')).toBe('6');
    expect(await page.getByTestId('allowance').innerText()).toContain('up to 15 ');
    await page.getByLabel(/Number of payments/).fill('3');
    expect(await page.getByTestId('allowance').innerText()).toContain('up to 7.5 ');
    await screenshot(page, 'checkout');
    await expectAccessible(page, 'checkout, plan shown');

    await page.getByRole('button', { name: 'Subscribe with the local test wallet' }).click();
    const status = page.getByTestId('status');
    await expect.poll(() => status.getAttribute('data-step'), { timeout: 60_000 }).toMatch(/confirmed|failed/);
    expect(await status.innerText()).toContain('Subscribed');
    await screenshot(page, 'checkout-confirmed');
    await expectAccessible(page, 'checkout, confirmed');

    const address = (await status.innerText()).match(/Wallet: (G[A-Z2-7]{55})/)![1];
    const subs = await subscriptionsOf(merchant.id);
    expect(subs).toEqual([
      expect.objectContaining({ plan_id: plan.id, customer_wallet_address: address, status: 'active' }),
    ]);
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const vault = await readVault(server, devnet.contracts.vault, address, wallet.publicKey());
    expect(vault).toMatchObject({
      token: devnet.contracts.token,
      amountPerInterval: BigInt(AMOUNT),
      intervalSeconds: BigInt(MONTH),
    });
    const allowance = await readAllowance(server, devnet.contracts.token, address, devnet.contracts.vault);
    expect(allowance?.amount).toBe(BigInt(AMOUNT) * 3n);
    // Two cycles after now, plus a day's margin, in 5 s ledgers.
    expect(allowance!.liveUntilLedger - allowance!.latestLedger).toBeGreaterThan((2 * MONTH) / 5);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('a subscriber checks out with Freighter, then sees the subscription at /manage signed by Freighter', async () => {
    const { merchant, plan } = await merchantPlan();
    const user = await newFundedAccount(devnet);
    const { page, errors } = await openPage(browser);
    await withFreighter(page, user, devnet.passphrase);
    await page.goto(`${base}/checkout/${plan.id}`);
    await page.getByTestId('price').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Subscribe with Freighter' }).click();
    const status = page.getByTestId('status');
    await expect.poll(() => status.getAttribute('data-step'), { timeout: 60_000 }).toMatch(/confirmed|failed/);
    expect(await status.innerText()).toContain('Subscribed');
    expect(await subscriptionsOf(merchant.id)).toEqual([
      expect.objectContaining({ customer_wallet_address: user.publicKey(), status: 'active' }),
    ]);
    // The service's clock must be near the signed message's time.
    t.clock.set(new Date());
    await page.goto(`${base}/manage`);
    await page.getByRole('button', { name: 'Connect Freighter' }).click();
    await expect
      .poll(() => page.getByTestId('token-group').innerText(), { timeout: 30_000 })
      .toContain('Acme Streaming');
    expect(await page.getByTestId('allowance-left').innerText()).toContain(
      'Allowance left: 15 USDC (about 6 more cycles)',
    );
    expect(errors).toEqual([]);
  }, 120_000);

  for (const c of [
    {
      name: 'a wallet on the wrong network',
      shot: 'checkout-wrong-network',
      network: 'Test SDF Network ; September 2015',
      refuse: false,
      message: /Wrong network: Freighter is on CUSTOM \("Test SDF Network ; September 2015"\)/,
    },
    {
      name: 'a refused signature',
      shot: 'checkout-refused',
      network: '',
      refuse: true,
      message: /The wallet refused to sign: The user rejected this request\./,
    },
  ]) {
    it(`${c.name} shows its message and creates nothing`, async () => {
      const { merchant, plan } = await merchantPlan();
      const user = await newFundedAccount(devnet);
      const { page, errors } = await openPage(browser, 'phone');
      const wallet = { address: user.publicKey(), network: c.network || devnet.passphrase, refuse: c.refuse };
      await page.addInitScript(fakeFreighter(wallet), wallet);
      await page.goto(`${base}/checkout/${plan.id}`);
      await page.getByTestId('price').waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Subscribe with Freighter' }).click();
      const status = page.getByTestId('status');
      await expect.poll(() => status.getAttribute('data-step'), { timeout: 30_000 }).toBe('failed');
      expect(await status.innerText()).toMatch(c.message);
      expect(await status.innerText()).toContain('Nothing was recorded');
      await screenshot(page, c.shot);
      await expectAccessible(page, c.name);
      expect(await subscriptionsOf(merchant.id)).toEqual([]);
      const sent = (await devnet.transactions()).filter((tx) => tx.source === user.publicKey());
      expect(sent).toEqual([]);
      expect(errors).toEqual([]);
    }, 60_000);
  }

  it('a plan without a token or with a fractional amount says why and offers nothing to sign', async () => {
    const { plan: noToken } = await merchantPlan({ token_contract_id: undefined });
    const { page } = await openPage(browser);
    await page.goto(`${base}/checkout/${noToken.id}`);
    await expect
      .poll(() => page.getByTestId('unavailable').innerText(), { timeout: 20_000 })
      .toContain('names no token');
    expect(await page.getByRole('button').count()).toBe(0);
    await screenshot(page, 'checkout-unavailable');
    await expectAccessible(page, 'checkout, plan without a token');

    const { plan: fractional } = await merchantPlan({ token_amount: '10.5' });
    await page.goto(`${base}/checkout/${fractional.id}`);
    await expect
      .poll(() => page.getByTestId('unavailable').innerText(), { timeout: 20_000 })
      .toContain('not a whole number');
    expect(await page.getByRole('button').count()).toBe(0);

    await page.goto(`${base}/checkout/${crypto.randomUUID()}`);
    await expect.poll(() => page.getByRole('alert').innerText(), { timeout: 20_000 }).toBe('Plan not found');
  }, 60_000);
});
