// The merchant dashboard in headless Chromium against the service (AUTH_MODE=keys) and the local
// network: a merchant signs in with its key, creates a plan, a subscriber checks out on that plan
// with the local test wallet, the merchant sees the new subscriber, collects a cycle and sees it
// in the pull history (with its transaction hash), the revenue chart and the CSV export, then
// pauses, resumes and cancels it; another
// merchant's key sees none of it. Screenshots go to docs/screenshots/; axe-core checks each view.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.ts';
import { expectAccessible, HAS_CHROMIUM, launch, openPage, screenshot } from '../support/browser.ts';
import { testClock } from '../support/clock.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { ADMIN_KEY, accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { chainEnv } from '../support/pull-fixture.ts';
import { newFundedAccount } from '../support/subscriber.ts';

describe.skipIf(!HAS_CHROMIUM)('dashboard page in headless Chromium', () => {
  let devnet: Devnet;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    devnet = await startDevnet({ ledgerMs: 200 });
    t = await startApp('pglite', {
      env: { ...chainEnv(devnet), ...accountsEnv({ AUTH_MODE: 'keys' }) },
      // Today, so the pull lands in the chart's last 30 days.
      clock: testClock(new Date()),
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await devnet?.stop();
  });

  async function signIn(page: Page, key: string) {
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('a merchant creates a plan, sees its new subscriber, collects a cycle and sees it everywhere', async () => {
    const wallet = await newFundedAccount(devnet);
    const A = await merchantWithKey(t.app, wallet.publicKey());
    const B = await merchantWithKey(t.app);
    const { page, outside, errors } = await openPage(browser);

    await page.goto(`${base}/dashboard`);
    await page.getByLabel('API key').waitFor();
    await screenshot(page, 'dashboard-sign-in');
    await expectAccessible(page, 'dashboard sign-in');
    expect(page.url()).not.toContain(A.key);

    await signIn(page, A.key);
    await page.getByLabel('Name').fill('Pro monthly');
    await page.getByLabel(/Price per cycle/).fill('10000000');
    await page.getByLabel(/Token contract/).fill(devnet.contracts.token);
    await page.getByRole('button', { name: 'Create plan' }).click();
    const created = page.getByTestId('plan-created');
    await created.waitFor({ timeout: 20_000 });
    const checkoutPath = (await created.getByRole('link').getAttribute('href'))!;
    expect(checkoutPath).toMatch(/^\/checkout\/[0-9a-f-]{36}$/);
    // The key never reached a URL.
    expect(page.url()).not.toContain(A.key);

    // A subscriber checks out on the new plan, in another tab.
    const buyer = await openPage(browser);
    await buyer.page.goto(`${base}${checkoutPath}`);
    await buyer.page.getByRole('button', { name: 'Subscribe with the local test wallet' }).click();
    await expect
      .poll(() => buyer.page.getByTestId('status').getAttribute('data-step'), { timeout: 60_000 })
      .toBe('confirmed');
    const subscriber = (await buyer.page.getByTestId('status').innerText()).match(/Wallet: (G[A-Z2-7]{55})/)![1];

    await page.reload();
    const rows = page.getByTestId('subscriptions').locator('tbody tr');
    await expect.poll(() => rows.first().innerText(), { timeout: 20_000 }).toContain('Pro monthly');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(subscriber.slice(0, 6));

    await rows
      .first()
      .getByRole('button', { name: /Open subscription/ })
      .click();
    const detail = page.getByTestId('subscription-detail');
    await detail.getByLabel(/Merchant secret/).fill(wallet.secret());
    await detail.getByRole('button', { name: 'Collect now' }).click();
    const result = detail.getByTestId('action-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.innerText()).toMatch(
      /Collect now: done \(Successfully pulled funds on-chain!, transaction [0-9a-f]{64}\)/,
    );
    const hash = (await result.innerText()).match(/[0-9a-f]{64}/)![0];

    const history = detail.getByTestId('pulls');
    await expect.poll(() => history.innerText(), { timeout: 20_000 }).toContain(hash);
    expect(await history.innerText()).toContain('confirmed');
    await expect.poll(() => page.getByTestId('revenue-total').innerText(), { timeout: 20_000 }).toBe('10000000');
    const today = new Date().toISOString().slice(0, 10);
    const bar = page.locator(`[data-testid="revenue-chart"] rect[data-date="${today}"]`);
    expect(Number(await bar.getAttribute('height'))).toBeGreaterThan(100);

    await page.getByRole('button', { name: /Export pulls/ }).click();
    const csv = page.getByTestId('csv-link');
    await csv.waitFor({ timeout: 20_000 });
    expect(await csv.innerText()).toContain('(1 pulls)');
    const [download] = await Promise.all([page.waitForEvent('download'), csv.click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.split('\r\n')).toHaveLength(2);
    expect(text).toContain(hash);

    // A subscriber who fell behind (set directly: making a pull fail on chain is another suite's
    // work) is listed first and above the list.
    const late = await as(t.app, A.key).post('/subscriptions', {
      plan_id: checkoutPath.split('/').pop(),
      customer_wallet_address: (await newFundedAccount(devnet)).publicKey(),
    });
    await t.deps.db.query("UPDATE subscriptions SET status = 'past_due' WHERE id = $1", [late.body.subscription.id]);
    await page.reload();
    await expect
      .poll(() => page.getByTestId('attention').innerText(), { timeout: 20_000 })
      .toContain('Needs attention: 1 past-due subscription');
    await expect.poll(() => rows.first().innerText(), { timeout: 20_000 }).toContain('past_due');
    await screenshot(page, 'dashboard');
    await expectAccessible(page, 'dashboard with a collected cycle');
    // Pause, resume and cancel from the subscription's panel.
    await page
      .getByTestId('subscriptions')
      .locator(`tr:has-text("${subscriber.slice(0, 6)}")`)
      .getByRole('button')
      .click();
    await expect.poll(() => history.innerText(), { timeout: 20_000 }).toContain(hash);
    await detail.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-subscription');
    const subStatus = () => detail.locator('p .badge').first().innerText();
    for (const [button, status] of [
      ['Pause', 'paused'],
      ['Resume', 'active'],
    ] as const) {
      await detail.getByRole('button', { name: button, exact: true }).click();
      await expect.poll(() => result.innerText(), { timeout: 20_000 }).toContain(`${button}: done`);
      await expect.poll(subStatus, { timeout: 20_000 }).toBe(status);
    }
    await detail.getByLabel('at period end').uncheck();
    await detail.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect.poll(() => result.innerText(), { timeout: 20_000 }).toContain('Cancel: done');
    await expect.poll(subStatus, { timeout: 20_000 }).toBe('canceled');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);

    // Merchant B, in a fresh tab, sees none of it.
    const other = await openPage(browser, 'phone');
    await signIn(other.page, B.key);
    await expect.poll(() => other.page.getByTestId('plans').innerText(), { timeout: 20_000 }).toBe('No plans yet.');
    await expect
      .poll(() => other.page.getByTestId('subscriptions').innerText(), { timeout: 20_000 })
      .toContain('No subscriptions match.');
    await expect.poll(() => other.page.getByTestId('revenue-total').innerText()).toBe('0');
    await screenshot(other.page, 'dashboard-other-merchant-phone');
    await expectAccessible(other.page, 'dashboard of another merchant, phone size');
    // The routes the dashboard reads answer B's key on A's merchant with 404.
    for (const path of ['pulls', 'pulls/daily-totals', 'subscriptions', 'plans'])
      expect((await as(t.app, B.key).get(`/merchants/${A.merchant.id}/${path}`)).status, path).toBe(404);
    // A key that is unknown, or the operator's, does not sign in.
    await other.page.evaluate(() => sessionStorage.clear());
    await signIn(other.page, `bk_${'x'.repeat(43)}`);
    await expect
      .poll(() => other.page.getByRole('alert').innerText())
      .toBe('Sign-in failed: The API key is unknown or revoked');
    await signIn(other.page, ADMIN_KEY);
    await expect.poll(() => other.page.getByRole('alert').innerText()).toContain("this is the operator's key");
  }, 180_000);
});
