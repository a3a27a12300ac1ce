// POST /plans/{id}/archive: an archived plan takes no new subscriptions (409 plan_archived), its
// existing subscriptions go on, and it stays readable with its archived_at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import {
  createMerchant,
  createPlan,
  createSubscription,
  get,
  newWallet,
  post,
  unknownId,
} from '../support/factories.ts';

describe.each(TARGETS)('archiving a plan on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  it('keeps existing subscriptions, refuses new ones, and keeps the first archived_at', async () => {
    const plan = await createPlan(t.app, (await createMerchant(t.app)).id);
    const existing = await createSubscription(t.app, plan.id);
    t.clock.set('2034-01-01T00:00:00.000Z');
    const res = await post(t.app, `/plans/${plan.id}/archive`, {});
    expect(res).toMatchObject({
      status: 200,
      body: { plan: { id: plan.id, archived_at: '2034-01-01T00:00:00.000Z' } },
    });
    t.clock.set('2034-02-01T00:00:00.000Z');
    expect((await post(t.app, `/plans/${plan.id}/archive`, {})).body.plan.archived_at).toBe('2034-01-01T00:00:00.000Z');
    const refused = await post(t.app, '/subscriptions', { plan_id: plan.id, customer_wallet_address: newWallet() });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'Plan is archived: it takes no new subscriptions', code: 'plan_archived' },
    });
    expect((await get(t.app, `/subscriptions/${existing.id}`)).body.subscription.status).toBe('active');
    expect((await get(t.app, `/plans/${plan.id}`)).body.plan.archived_at).toBe('2034-01-01T00:00:00.000Z');
  });

  it('404 for an unknown plan', async () => {
    expect(await post(t.app, `/plans/${unknownId()}/archive`, {})).toMatchObject({
      status: 404,
      body: { error: 'Plan not found' },
    });
  });
});
