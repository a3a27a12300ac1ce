// Client input never reaches PostgreSQL as a 500, on both databases: ids of any length, NUL
// characters, impossible dates, forged cursors, JSON numbers a double cannot hold, amounts and
// intervals out of range. Amounts come back exact, digit for digit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, startApp, type TestApp } from '../support/app.ts';
import {
  createMerchant,
  createPlan,
  createSubscription,
  get,
  newWallet,
  planPayload,
  post,
  unknownId,
} from '../support/factories.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';

describe.each(TARGETS)('hardened edge on %s', (target) => {
  let t: TestApp;
  let merchantId: string;
  beforeAll(async () => {
    t = await startApp(target, { env: accountsEnv() });
    merchantId = (await createMerchant(t.app)).id;
  });
  afterAll(() => t.close());

  describe('ids of any length: 400 with the spec message, the path never echoed', () => {
    const routes = [
      ['GET', (id: string) => `/plans/${id}`, 'id'],
      ['GET', (id: string) => `/subscriptions/${id}/pulls`, 'id'],
      ['DELETE', (id: string) => `/merchants/${id}`, 'id'],
      ['GET', (id: string) => `/merchants/${id}/subscriptions`, 'id'],
    ] as const;
    it.each([101, 1_000, 10_000])('%i characters', async (n) => {
      const id = 'a'.repeat(n);
      for (const [method, url, field] of routes) {
        const res = await t.app.inject({ method, url: url(id) });
        expect(res.statusCode, url(id).slice(0, 40)).toBe(400);
        expect(res.json()).toEqual({ error: `Invalid input on ${field}: id parameter must be a valid UUID` });
      }
      const { key, merchant } = await merchantWithKey(t.app);
      const keyRoute = await as(t.app, key).del(`/merchants/${merchant.id}/api-keys/${id}`);
      expect(keyRoute).toMatchObject({
        status: 400,
        body: { error: 'Invalid input on key_id: key_id parameter must be a valid UUID' },
      });
    });
  });

  describe('NUL characters in strings: 400 naming the field', () => {
    it.each([
      ['/merchants', () => ({ name: 'Acme\u0000', wallet_address: newWallet() }), 'name'],
      ['/plans', () => planPayload(merchantId, { name: 'Gold\u0000plan' }), 'name'],
      [
        '/subscriptions',
        () => ({ plan_id: unknownId(), customer_wallet_address: `G\u0000${'A'.repeat(54)}` }),
        'customer_wallet_address',
      ],
      ['/trigger-pull', () => ({ subscription_id: unknownId(), merchant_secret: 'S\u0000' }), 'merchant_secret'],
    ])('%s', async (url, body, field) => {
      const res = await post(t.app, url, body());
      expect(res).toMatchObject({
        status: 400,
        body: { error: `Invalid input on ${field}: ${field} must not contain NUL characters` },
      });
    });

    it('in an API key label', async () => {
      const { key, merchant } = await merchantWithKey(t.app);
      const res = await as(t.app, key).post(`/merchants/${merchant.id}/api-keys`, { label: 'a\u0000b' });
      expect(res).toMatchObject({
        status: 400,
        body: { error: 'Invalid input on label: label must not contain NUL characters' },
      });
    });
  });

  describe('dates', () => {
    it.each([
      ['2030-02-30T00:00:00Z', 'due_before must be an ISO 8601 date-time'],
      ['2031-02-29T00:00:00Z', 'due_before must be an ISO 8601 date-time'],
      ['2030-04-31T12:00:00Z', 'due_before must be an ISO 8601 date-time'],
      ['0000-01-01T00:00:00Z', 'due_before must be a date and time that exist (years 1 to 9999)'],
      ['0001-01-01T00:30:00%2B01:00', 'due_before must be a date and time that exist (years 1 to 9999)'],
    ])('due_before=%s: 400', async (date, reason) => {
      const res = await get(t.app, `/merchants/${merchantId}/subscriptions?due_before=${date}`);
      expect(res).toEqual({ status: 400, body: { error: `Invalid input on due_before: ${reason}` } });
    });

    it('a leap day and the far future are fine', async () => {
      expect((await get(t.app, `/merchants/${merchantId}/subscriptions?due_before=2032-02-29T00:00:00Z`)).status).toBe(
        200,
      );
      expect((await get(t.app, `/merchants/${merchantId}/subscriptions?due_before=9999-12-31T23:59:59Z`)).status).toBe(
        200,
      );
    });
  });

  describe('cursors are signed: a forged one is a 400, never reaches SQL', () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    it.each([
      ['an unsigned cursor of the old format', b64(['created', '2030-02-30T00:00:00.000000Z', unknownId()])],
      [
        'an impossible date with a made-up signature',
        `${b64(['created', '2030-02-30T00:00:00.000000Z', unknownId()])}.AAAAAAAAAAAAAAAAAAAAAA`,
      ],
      ['garbage', '..'],
    ])('%s', async (_label, cursor) => {
      const res = await get(t.app, `/merchants/${merchantId}/plans?cursor=${cursor}`);
      expect(res).toEqual({
        status: 400,
        body: { error: 'Invalid input on cursor: cursor is not a next_cursor of this listing' },
      });
    });

    it('a real cursor with one character changed', async () => {
      const m = await createMerchant(t.app);
      await createPlan(t.app, m.id);
      await createPlan(t.app, m.id);
      const cursor = (await get(t.app, `/merchants/${m.id}/plans?limit=1`)).body.next_cursor as string;
      expect((await get(t.app, `/merchants/${m.id}/plans?cursor=${cursor}`)).status).toBe(200);
      const payload = cursor.slice(0, cursor.indexOf('.'));
      const moved = Buffer.from(
        Buffer.from(payload, 'base64url')
          .toString()
          // Another digit, whatever it was (a '9' replaced by '9' would be no change at all).
          .replace(/\d(?=Z)/, (d) => (d === '9' ? '8' : '9')),
      ).toString('base64url');
      const tampered = moved + cursor.slice(cursor.indexOf('.'));
      expect((await get(t.app, `/merchants/${m.id}/plans?cursor=${tampered}`)).status).toBe(400);
    });
  });

  describe('amounts stay exact', () => {
    it('a JSON number a double cannot hold is refused with advice; as a string it is kept', async () => {
      const text = `{"merchant_id":"${merchantId}","name":"Big","token_amount":12345678901234567890,"interval_seconds":60}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/plans',
        headers: { 'content-type': 'application/json' },
        payload: text,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error:
          'Invalid input on token_amount: 12345678901234567890 cannot be held exactly by a JSON number; send it as a numeric string ("12345678901234567890")',
      });
      const asString = await t.app.inject({
        method: 'POST',
        url: '/plans',
        payload: planPayload(merchantId, { token_amount: '12345678901234567890' }),
      });
      expect(asString.statusCode).toBe(201);
      expect(asString.body).toContain('"token_amount":12345678901234567890,');
    });

    it.each([
      ['"interval_seconds":9007199254740993', 'interval_seconds'],
      ['"token_amount":1.00000000000000001', 'token_amount'],
      ['"token_amount":1e400', 'token_amount'],
    ])('%s: 400', async (field, name) => {
      const text = `{"merchant_id":"${merchantId}","name":"N","token_amount":1,"interval_seconds":60,${field}}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/plans',
        headers: { 'content-type': 'application/json' },
        payload: text,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(
        new RegExp(`^Invalid input on ${name}: .* cannot be held exactly by a JSON number`),
      );
    });

    it('numbers a double holds exactly pass, exponents included', async () => {
      const text = `{"merchant_id":"${merchantId}","name":"N","token_amount":1.5E2,"interval_seconds":3.6e3}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/plans',
        headers: { 'content-type': 'application/json' },
        payload: text,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().plan).toMatchObject({ token_amount: 150, interval_seconds: 3600 });
    });

    it('every answer writes the stored amount digit for digit: create, read, listing', async () => {
      const amount = '123456789012345678901234.1234567';
      const created = await t.app.inject({
        method: 'POST',
        url: '/plans',
        payload: planPayload(merchantId, { token_amount: amount }),
      });
      expect(created.body).toContain(`"token_amount":${amount},`);
      const id = created.json().plan.id;
      expect((await t.app.inject({ method: 'GET', url: `/plans/${id}` })).body).toContain(`"token_amount":${amount},`);
      expect((await t.app.inject({ method: 'GET', url: `/merchants/${merchantId}/plans?limit=500` })).body).toContain(
        `"token_amount":${amount},`,
      );
      // Small amounts stay plain numbers: 0.0000001, not a string.
      const small = await t.app.inject({
        method: 'POST',
        url: '/plans',
        payload: planPayload(merchantId, { token_amount: '0.0000001' }),
      });
      expect(small.body).toContain('"token_amount":0.0000001,');
      expect(small.json().plan.token_amount).toBe(1e-7);
    });

    it.each([
      [
        '170141183460469231731687303715884105728',
        'token_amount must be at most 170141183460469231731687303715884105727 (the largest i128)',
      ],
      ['1e100000', 'token_amount must be at most 170141183460469231731687303715884105727 (the largest i128)'],
      ['1.00000001', 'token_amount must have at most 7 decimal places'],
      ['1e-100000', 'token_amount must have at most 7 decimal places'],
    ])('token_amount %s: 400', async (amount, reason) => {
      const res = await post(t.app, '/plans', planPayload(merchantId, { token_amount: amount }));
      expect(res).toMatchObject({ status: 400, body: { error: `Invalid input on token_amount: ${reason}` } });
    });

    it('the largest i128 itself is accepted and answered exactly', async () => {
      const max = '170141183460469231731687303715884105727';
      const res = await t.app.inject({
        method: 'POST',
        url: '/plans',
        payload: planPayload(merchantId, { token_amount: max }),
      });
      expect(res.statusCode).toBe(201);
      expect(res.body).toContain(`"token_amount":${max},`);
    });
  });

  describe('interval_seconds: one rule, at most 10,000 years', () => {
    it('2^31 and 4e9 are accepted; beyond 315360000000 is 400', async () => {
      for (const interval of [2 ** 31, 4_000_000_000, 315_360_000_000]) {
        expect((await post(t.app, '/plans', planPayload(merchantId, { interval_seconds: interval }))).status).toBe(201);
      }
      const res = await post(t.app, '/plans', planPayload(merchantId, { interval_seconds: 315_360_000_001 }));
      expect(res).toMatchObject({
        status: 400,
        body: {
          error: 'Invalid input on interval_seconds: interval_seconds must be at most 315360000000 (10,000 years)',
        },
      });
    });

    it('a stored plan longer than 2^31 - 1 seconds loads for a pull (no int4 cast)', async () => {
      const plan = await createPlan(t.app, merchantId, { interval_seconds: 4_000_000_000 });
      const sub = await createSubscription(t.app, plan.id);
      const ctx = await t.deps.repos.pulls.loadContext(sub.id);
      expect(ctx?.intervalSeconds).toBe(4_000_000_000);
    });
  });
});
