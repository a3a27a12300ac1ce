// POST /subscriptions (spec) and GET /subscriptions/{id} (product.md), on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateSubscriptionResponse, GetSubscriptionResponse } from '../../src/schemas/subscriptions.ts';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import {
  createMerchant,
  createPlan,
  createSubscription,
  del,
  get,
  newSecret,
  newWallet,
  post,
  unknownId,
} from '../support/factories.ts';

describe.each(TARGETS)('subscriptions on %s', (target) => {
  let t: TestApp;
  let planId: string;
  beforeAll(async () => {
    t = await startApp(target);
    planId = (await createPlan(t.app, (await createMerchant(t.app)).id)).id;
  });
  afterAll(() => t.close());

  describe('POST /subscriptions', () => {
    it('201: status active, next_billing_date = the server clock now (first cycle due at once)', async () => {
      t.clock.set('2030-03-04T05:06:07.089Z');
      const wallet = newWallet();
      const res = await post(t.app, '/subscriptions', { plan_id: planId, customer_wallet_address: wallet });
      expect(res.status).toBe(201);
      const body = CreateSubscriptionResponse.parse(res.body);
      expect(body).toEqual({
        message: 'Subscription created',
        subscription: {
          id: expect.any(String),
          plan_id: planId,
          customer_wallet_address: wallet,
          status: 'active',
          next_billing_date: '2030-03-04T05:06:07.089Z',
        },
      });
    });

    it('500 with the unique-constraint message when the wallet is already on this plan', async () => {
      const wallet = newWallet();
      await createSubscription(t.app, planId, wallet);
      const res = await post(t.app, '/subscriptions', { plan_id: planId, customer_wallet_address: wallet });
      expect(res).toMatchObject({
        status: 500,
        body: {
          error: 'duplicate key value violates unique constraint "subscriptions_customer_wallet_address_plan_id_key"',
        },
      });
      expect(Object.keys(res.body)).toEqual(['error']);
    });

    it('the same wallet on another plan, and another wallet on the same plan, are both fine', async () => {
      const wallet = newWallet();
      await createSubscription(t.app, planId, wallet);
      const other = await createPlan(t.app, (await createMerchant(t.app)).id);
      await createSubscription(t.app, other.id, wallet);
      await createSubscription(t.app, planId, newWallet());
    });

    it('404 Plan not found for a well-formed plan_id that matches nothing', async () => {
      const res = await post(t.app, '/subscriptions', { plan_id: unknownId(), customer_wallet_address: newWallet() });
      expect(res).toMatchObject({ status: 404, body: { error: 'Plan not found' } });
    });

    it('404 Plan not found for a plan whose merchant is soft-deleted', async () => {
      const merchant = await createMerchant(t.app);
      const plan = await createPlan(t.app, merchant.id);
      await del(t.app, `/merchants/${merchant.id}`);
      const res = await post(t.app, '/subscriptions', { plan_id: plan.id, customer_wallet_address: newWallet() });
      expect(res).toMatchObject({ status: 404, body: { error: 'Plan not found' } });
    });

    const wallet = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
    const id = '6f1c2d4e-0000-4000-8000-000000000000';
    it.each([
      [
        { customer_wallet_address: wallet },
        'Invalid input on plan_id: Invalid input: expected string, received undefined',
      ],
      [
        { plan_id: 'plan-1', customer_wallet_address: wallet },
        'Invalid input on plan_id: plan_id must be a valid UUID',
      ],
      [{ plan_id: id }, 'Invalid input on customer_wallet_address: Invalid input: expected string, received undefined'],
      [
        { plan_id: id, customer_wallet_address: 'GABC' },
        'Invalid input on customer_wallet_address: must be a valid Stellar Ed25519 public address',
      ],
      [
        { plan_id: id, customer_wallet_address: wallet.toLowerCase() },
        'Invalid input on customer_wallet_address: must be a valid Stellar Ed25519 public address',
      ],
      [
        { plan_id: id, customer_wallet_address: newSecret() },
        'Invalid input on customer_wallet_address: must be a valid Stellar Ed25519 public address',
      ],
      [
        { plan_id: id, customer_wallet_address: 42 },
        'Invalid input on customer_wallet_address: Invalid input: expected string, received number',
      ],
      // Both wrong: plan_id is reported, and only it.
      [{ plan_id: 'x', customer_wallet_address: 'y' }, 'Invalid input on plan_id: plan_id must be a valid UUID'],
    ])('400 for %j', async (payload, message) => {
      const res = await post(t.app, '/subscriptions', payload);
      expect(res).toMatchObject({ status: 400, body: { error: message } });
    });
  });

  describe('GET /subscriptions/{id}', () => {
    it('200 with the subscription', async () => {
      const sub = await createSubscription(t.app, planId);
      const res = await get(t.app, `/subscriptions/${sub.id}`);
      expect(res.status).toBe(200);
      // The spec's five fields, and the health check that has not run yet.
      expect(GetSubscriptionResponse.parse(res.body)).toEqual({
        subscription: { ...sub, health: { status: 'unknown', checked_at: null } },
      });
    });

    it("still 200 after the plan's merchant is soft-deleted: the subscriber's record stays readable", async () => {
      const merchant = await createMerchant(t.app);
      const sub = await createSubscription(t.app, (await createPlan(t.app, merchant.id)).id);
      await del(t.app, `/merchants/${merchant.id}`);
      expect(await get(t.app, `/subscriptions/${sub.id}`)).toEqual({
        status: 200,
        body: { subscription: { ...sub, health: { status: 'unknown', checked_at: null } } },
      });
    });

    it('404 Subscription not found, 400 for a malformed id', async () => {
      expect(await get(t.app, `/subscriptions/${unknownId()}`)).toEqual({
        status: 404,
        body: { error: 'Subscription not found' },
      });
      expect(await get(t.app, '/subscriptions/zzz')).toEqual({
        status: 400,
        body: { error: 'Invalid input on id: id parameter must be a valid UUID' },
      });
    });
  });
});
