// GET /plans/{id}: 200 body per product.md, 404 and 400 per the spec, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetPlanResponse } from '../../src/schemas/plans.ts';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { createMerchant, createPlan, del, get, unknownId } from '../support/factories.ts';

describe.each(TARGETS)('GET /plans/{id} on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  it('200 with the plan and its merchant (id, name, wallet_address)', async () => {
    const merchant = await createMerchant(t.app, { name: 'Checkout Co' });
    const plan = await createPlan(t.app, merchant.id, { token_amount: '7.25', interval_seconds: '86400' });
    const res = await get(t.app, `/plans/${plan.id}`);
    expect(res.status).toBe(200);
    expect(GetPlanResponse.parse(res.body)).toEqual({
      plan: { ...plan, merchant: { id: merchant.id, name: 'Checkout Co', wallet_address: merchant.wallet_address } },
    });
    expect(res.body.plan.token_amount).toBe(7.25);
  });

  it('accepts an upper-case UUID', async () => {
    const plan = await createPlan(t.app, (await createMerchant(t.app)).id);
    const res = await get(t.app, `/plans/${plan.id.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.plan.id).toBe(plan.id);
  });

  it('404 Plan not found for a well-formed id that matches nothing', async () => {
    expect(await get(t.app, `/plans/${unknownId()}`)).toEqual({ status: 404, body: { error: 'Plan not found' } });
  });

  it("404 Plan not found once the plan's merchant is soft-deleted", async () => {
    const merchant = await createMerchant(t.app);
    const plan = await createPlan(t.app, merchant.id);
    await del(t.app, `/merchants/${merchant.id}`);
    expect(await get(t.app, `/plans/${plan.id}`)).toEqual({ status: 404, body: { error: 'Plan not found' } });
  });

  it('400 for a malformed id', async () => {
    expect(await get(t.app, '/plans/12345')).toEqual({
      status: 400,
      body: { error: 'Invalid input on id: id parameter must be a valid UUID' },
    });
  });
});
