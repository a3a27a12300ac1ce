// Every listing page is one index range scan in the listing's order, never a scan and a sort of
// the whole scope: EXPLAIN of the exact SQL the repositories send, on a merchant with 20,000
// subscriptions, must show the intended index and no Sort node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageRequest } from '../../src/billing/paging.ts';
import type { SubscriptionFilter } from '../../src/billing/subscriptions/subscriptions-port.ts';
import type { Queryable } from '../../src/storage/db.ts';
import { createRepos } from '../../src/storage/repos/repos.ts';
import { startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { createMerchant, createPlan } from '../support/factories.ts';

const ROWS = 20_000;

describe('listing indexes on postgres', () => {
  let t: TestApp;
  let merchantId: string;
  let planId: string;
  beforeAll(async () => {
    t = await startApp('postgres');
    merchantId = (await createMerchant(t.app)).id;
    planId = (await createPlan(t.app, merchantId)).id;
    for (let i = 0; i < 5; i++) await createPlan(t.app, merchantId);
    // Wallets G + 55 base32 letters, unique per row (the (wallet, plan) constraint).
    await t.deps.db.query(
      `INSERT INTO subscriptions (plan_id, customer_wallet_address, status, next_billing_date)
       SELECT $1, 'G' || lpad(translate(i::text, '0123456789', 'ABCDEFGHIJ'), 55, 'Z'),
              CASE WHEN i % 10 = 0 THEN 'past_due' ELSE 'active' END, now() + (i % 1000) * interval '1 hour'
         FROM generate_series(1, $2::int) AS i`,
      [planId, ROWS],
    );
    await t.deps.db.query('ANALYZE subscriptions');
    await t.deps.db.query('ANALYZE plans');
  }, 120_000);
  afterAll(() => t.close());

  /** The plan (JSON) of the query the repository call sends, run with its own parameters. */
  async function planOf(
    call: (repos: ReturnType<typeof createRepos>) => Promise<unknown>,
    db: Queryable = t.deps.db,
  ): Promise<string> {
    let sent: { text: string; params?: unknown[] } | undefined;
    const spy: Queryable = {
      async query(text, params) {
        sent = { text, params };
        return { rows: [], rowCount: 0 };
      },
    };
    await call(createRepos(spy));
    if (!sent) throw new Error('no query sent');
    const { rows } = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sent.text}`, sent.params);
    return JSON.stringify(rows[0]['QUERY PLAN']);
  }

  const page: PageRequest = { limit: 50 };
  const after: PageRequest = {
    limit: 50,
    after: { at: '2030-01-01T00:00:00.000000Z', id: '00000000-0000-0000-0000-000000000000' },
  };
  const subs = (f: SubscriptionFilter, p: PageRequest) => (r: ReturnType<typeof createRepos>) =>
    r.subscriptions.list(f, p);

  it.each([
    ['merchant, created order', () => subs({ merchant_id: merchantId }, page), 'subscriptions_merchant_created_idx'],
    [
      'merchant, created order, after a cursor',
      () => subs({ merchant_id: merchantId }, after),
      'subscriptions_merchant_created_idx',
    ],
    [
      'merchant, status filter',
      () => subs({ merchant_id: merchantId, status: 'active' }, after),
      'subscriptions_merchant_created_idx',
    ],
    [
      'merchant, due order',
      () => subs({ merchant_id: merchantId, due_before: new Date('2100-01-01') }, after),
      'subscriptions_merchant_due_idx',
    ],
    ['plan', () => subs({ plan_id: planId }, after), 'subscriptions_plan_created_idx'],
  ])('subscriptions: %s', async (_label, call, index) => {
    const plan = await planOf(call());
    expect(plan).toContain(`"Index Name":"${index}"`);
    expect(plan).not.toContain('"Node Type":"Sort"');
  });

  it('plans of a merchant and live merchants use their indexes', async () => {
    // Six plans are too few for the planner to prefer an index; the shape of the plan is what counts.
    await t.deps.db.session(async (conn) => {
      await conn.query('SET enable_seqscan = off');
      try {
        const q = (call: (r: ReturnType<typeof createRepos>) => Promise<unknown>) => planOf(call, conn);
        const plans = await q((r) => r.plans.listByMerchant(merchantId, after));
        expect(plans).toContain('"Index Name":"plans_merchant_created_idx"');
        expect(plans).not.toContain('"Node Type":"Sort"');
        const merchants = await q((r) => r.merchants.list(after));
        expect(merchants).toContain('"Index Name":"merchants_live_created_idx"');
        expect(merchants).not.toContain('"Node Type":"Sort"');
      } finally {
        await conn.query('RESET enable_seqscan');
      }
    });
  });
});
