// GET /merchants/{id}/plans, /merchants/{id}/subscriptions, /plans/{id}/subscriptions: filters,
// cursor pages (no duplicates or gaps while rows are inserted between pages), 400 and 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanListResponse, SubscriptionListResponse } from '../../src/schemas/listings.ts';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import {
  createMerchant,
  createPlan,
  createSubscription,
  del,
  get,
  newWallet,
  unknownId,
} from '../support/factories.ts';

/** Follows next_cursor to the end; `between` runs after each page (to insert rows mid-walk). */
async function walk(
  t: TestApp,
  url: string,
  key: 'plans' | 'subscriptions',
  between: () => Promise<void> = async () => {},
) {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(t.app, cursor ? `${url}${sep}cursor=${cursor}` : url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = key === 'plans' ? PlanListResponse.parse(res.body) : SubscriptionListResponse.parse(res.body);
    ids.push(
      ...(key === 'plans'
        ? (body as PlanListResponse).plans
        : (body as { subscriptions: { id: string }[] }).subscriptions
      ).map((r) => r.id),
    );
    cursor = body.next_cursor;
    if (cursor) await between();
  } while (cursor);
  return ids;
}

/** Many rows in one statement share one created_at (now() of the transaction): ties broken by id. */
async function bulkSubscriptions(t: TestApp, planId: string, n: number, nextBilling: string) {
  const wallets = Array.from({ length: n }, newWallet);
  const { rows } = await t.deps.db.query<{ id: string }>(
    `INSERT INTO subscriptions (plan_id, customer_wallet_address, next_billing_date)
     SELECT $1, w, $3::timestamptz FROM unnest($2::text[]) AS w RETURNING id`,
    [planId, wallets, nextBilling],
  );
  return rows.map((r) => r.id);
}

describe.each(TARGETS)('listings on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  it("GET /merchants/{id}/plans pages through the merchant's plans only, oldest first", async () => {
    const m = await createMerchant(t.app);
    const other = await createMerchant(t.app);
    await createPlan(t.app, other.id);
    const plans = [];
    for (let i = 0; i < 5; i++) plans.push(await createPlan(t.app, m.id, { name: `P${i}` }));
    const first = await get(t.app, `/merchants/${m.id}/plans?limit=2`);
    expect(first.body.plans).toEqual(plans.slice(0, 2));
    expect(await walk(t, `/merchants/${m.id}/plans?limit=2`, 'plans')).toEqual(plans.map((p) => p.id));
    const all = await get(t.app, `/merchants/${m.id}/plans`);
    expect(all.body).toEqual({ plans, next_cursor: null });
  });

  it('pages have no duplicates or gaps while rows are inserted between pages, ties included', async () => {
    const m = await createMerchant(t.app);
    const plan = await createPlan(t.app, m.id);
    const before = await bulkSubscriptions(t, plan.id, 7, '2030-01-01T00:00:00Z');
    const added: string[] = [];
    const seen = await walk(t, `/plans/${plan.id}/subscriptions?limit=3`, 'subscriptions', async () => {
      if (added.length < 6) added.push((await createSubscription(t.app, plan.id)).id);
    });
    expect(new Set(seen).size).toBe(seen.length);
    // Same created_at: id order. Rows created later sort after every earlier row, so all appear.
    expect(seen).toEqual([...before.sort(), ...added]);
    const merchantWide = await walk(t, `/merchants/${m.id}/subscriptions?limit=4`, 'subscriptions');
    expect(merchantWide).toEqual(seen);
  });

  it('filters by status, plan_id and due_before (ordered by next_billing_date)', async () => {
    const m = await createMerchant(t.app);
    const [a, b] = [await createPlan(t.app, m.id), await createPlan(t.app, m.id)];
    t.clock.set('2030-03-01T00:00:00.000Z');
    const late = await createSubscription(t.app, a.id);
    t.clock.set('2030-01-01T00:00:00.000Z');
    const early = await createSubscription(t.app, b.id);
    const overdue = await createSubscription(t.app, a.id);
    await t.deps.db.query(`UPDATE subscriptions SET status = 'past_due' WHERE id = $1`, [overdue.id]);
    const base = `/merchants/${m.id}/subscriptions`;
    const ids = async (url: string) => (await walk(t, url, 'subscriptions')).sort();
    expect(await ids(`${base}?status=past_due`)).toEqual([overdue.id]);
    expect(await ids(`${base}?status=active`)).toEqual([late.id, early.id].sort());
    expect(await ids(`${base}?plan_id=${a.id}`)).toEqual([late.id, overdue.id].sort());
    expect(await ids(`${base}?plan_id=${a.id}&status=active`)).toEqual([late.id]);
    expect(await ids(`${base}?due_before=2030-02-01T00:00:00Z`)).toEqual([early.id, overdue.id].sort());
    expect(await ids(`/plans/${a.id}/subscriptions?due_before=2030-02-01T00:00:00%2B01:00`)).toEqual([overdue.id]);
    // Due order is next_billing_date first, whatever the creation order.
    const due = await walk(t, `${base}?due_before=2031-01-01T00:00:00Z&limit=1`, 'subscriptions');
    expect(due.at(-1)).toBe(late.id);
    // A plan of another merchant yields nothing here.
    const foreign = await createPlan(t.app, (await createMerchant(t.app)).id);
    expect(await ids(`${base}?plan_id=${foreign.id}`)).toEqual([]);
  });

  it('404 for an unknown or deleted merchant and an unknown plan', async () => {
    const m = await createMerchant(t.app);
    const plan = await createPlan(t.app, m.id);
    expect(await get(t.app, `/merchants/${unknownId()}/plans`)).toEqual({
      status: 404,
      body: { error: 'Merchant not found' },
    });
    expect(await get(t.app, `/merchants/${unknownId()}/subscriptions`)).toEqual({
      status: 404,
      body: { error: 'Merchant not found' },
    });
    expect(await get(t.app, `/plans/${unknownId()}/subscriptions`)).toEqual({
      status: 404,
      body: { error: 'Plan not found' },
    });
    await del(t.app, `/merchants/${m.id}`);
    expect((await get(t.app, `/merchants/${m.id}/plans`)).status).toBe(404);
    expect(await get(t.app, `/plans/${plan.id}/subscriptions`)).toEqual({
      status: 404,
      body: { error: 'Plan not found' },
    });
  });

  it.each([
    ['/merchants/x/plans', 'id: id parameter must be a valid UUID'],
    ['/merchants/M/plans?limit=0', 'limit: limit must be an integer from 1 to 500'],
    ['/merchants/M/plans?limit=501', 'limit: limit must be an integer from 1 to 500'],
    ['/merchants/M/plans?limit=2.5', 'limit: limit must be an integer from 1 to 500'],
    ['/merchants/M/plans?limit=ten', 'limit: Invalid input: expected number, received NaN'],
    ['/merchants/M/plans?cursor=abc', 'cursor: cursor is not a next_cursor of this listing'],
    ['/merchants/M/subscriptions?status=gone', 'status: Invalid option: expected one of "active"|"past_due"'],
    ['/merchants/M/subscriptions?plan_id=1', 'plan_id: plan_id must be a valid UUID'],
    ['/merchants/M/subscriptions?due_before=tomorrow', 'due_before: due_before must be an ISO 8601 date-time'],
  ])('400 for %s', async (url, reason) => {
    const res = await get(t.app, url.replace('/M/', `/${unknownId()}/`));
    expect(res).toEqual({ status: 400, body: { error: `Invalid input on ${reason}` } });
  });

  it('400 for a cursor cut from the other order (created vs due)', async () => {
    const m = await createMerchant(t.app);
    const plan = await createPlan(t.app, m.id);
    await createSubscription(t.app, plan.id);
    await createSubscription(t.app, plan.id);
    const page = await get(t.app, `/plans/${plan.id}/subscriptions?limit=1`);
    const res = await get(
      t.app,
      `/plans/${plan.id}/subscriptions?due_before=2040-01-01T00:00:00Z&cursor=${page.body.next_cursor}`,
    );
    expect(res).toEqual({
      status: 400,
      body: { error: 'Invalid input on cursor: cursor is not a next_cursor of this listing' },
    });
  });
});
