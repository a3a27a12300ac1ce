// POST /plans: every row of the spec's table, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatePlanResponse } from '../../src/schemas/plans.ts';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { createMerchant, del, planPayload, post, unknownId } from '../support/factories.ts';

describe.each(TARGETS)('POST /plans on %s', (target) => {
  let t: TestApp;
  let merchantId: string;
  beforeAll(async () => {
    t = await startApp(target);
    merchantId = (await createMerchant(t.app)).id;
  });
  afterAll(() => t.close());

  describe('201', () => {
    it('returns the constant message and the plan with its assigned fields', async () => {
      const res = await post(
        t.app,
        '/plans',
        planPayload(merchantId, { name: 'Gold', token_amount: 25, interval_seconds: 60 }),
      );
      expect(res.status).toBe(201);
      const body = CreatePlanResponse.parse(res.body);
      expect(body.message).toBe('Plan created successfully');
      expect(body.plan).toMatchObject({
        merchant_id: merchantId,
        name: 'Gold',
        token_amount: 25,
        interval_seconds: 60,
      });
      expect(body.plan.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('accepts numeric strings for token_amount and interval_seconds and answers with numbers', async () => {
      const res = await post(
        t.app,
        '/plans',
        planPayload(merchantId, { token_amount: '10.5000000', interval_seconds: '3600' }),
      );
      expect(res.status).toBe(201);
      expect(res.body.plan).toMatchObject({ token_amount: 10.5, interval_seconds: 3600 });
    });

    it('stores token_amount exactly (numeric), beyond float precision', async () => {
      const amount = '123456789012345678901234.1234567';
      const res = await post(t.app, '/plans', planPayload(merchantId, { token_amount: amount }));
      expect(res.status).toBe(201);
      const row = await t.deps.db.query<{ t: string }>('SELECT token_amount::text AS t FROM plans WHERE id = $1', [
        res.body.plan.id,
      ]);
      expect(row.rows[0].t).toBe(amount);
    });

    it('accepts the smallest unit (0.0000001) and an interval beyond 32-bit seconds', async () => {
      const res = await post(
        t.app,
        '/plans',
        planPayload(merchantId, { token_amount: 0.0000001, interval_seconds: 4_000_000_000 }),
      );
      expect(res.status).toBe(201);
      expect(res.body.plan).toMatchObject({ token_amount: 0.0000001, interval_seconds: 4_000_000_000 });
    });

    it('keeps a name with inner and outer spaces as sent', async () => {
      const res = await post(t.app, '/plans', planPayload(merchantId, { name: ' Gold  plan ' }));
      expect(res.body.plan.name).toBe(' Gold  plan ');
    });
  });

  describe('400: one message, first failing field only', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'merchant_id missing',
        { merchant_id: undefined },
        'Invalid input on merchant_id: Invalid input: expected string, received undefined',
      ],
      [
        'merchant_id not a UUID',
        { merchant_id: 'abc' },
        'Invalid input on merchant_id: merchant_id must be a valid UUID',
      ],
      [
        'merchant_id a number',
        { merchant_id: 12 },
        'Invalid input on merchant_id: Invalid input: expected string, received number',
      ],
      [
        'name missing',
        { name: undefined },
        'Invalid input on name: Invalid input: expected string, received undefined',
      ],
      ['name empty', { name: '' }, 'Invalid input on name: name cannot be empty'],
      ['name only spaces', { name: '  \t ' }, 'Invalid input on name: name cannot be empty'],
      [
        'name not a string',
        { name: ['Gold'] },
        'Invalid input on name: Invalid input: expected string, received array',
      ],
      [
        'token_amount missing',
        { token_amount: undefined },
        'Invalid input on token_amount: Invalid input: expected number, received undefined',
      ],
      ['token_amount 0', { token_amount: 0 }, 'Invalid input on token_amount: token_amount must be greater than 0'],
      [
        'token_amount negative',
        { token_amount: -5 },
        'Invalid input on token_amount: token_amount must be greater than 0',
      ],
      ['token_amount "0"', { token_amount: '0' }, 'Invalid input on token_amount: token_amount must be greater than 0'],
      [
        'token_amount non-numeric',
        { token_amount: 'ten' },
        'Invalid input on token_amount: Invalid input: expected number, received NaN',
      ],
      [
        'token_amount blank string',
        { token_amount: ' ' },
        'Invalid input on token_amount: Invalid input: expected number, received NaN',
      ],
      [
        'token_amount boolean',
        { token_amount: true },
        'Invalid input on token_amount: Invalid input: expected number, received boolean',
      ],
      [
        'interval_seconds missing',
        { interval_seconds: undefined },
        'Invalid input on interval_seconds: Invalid input: expected number, received undefined',
      ],
      [
        'interval_seconds 0',
        { interval_seconds: 0 },
        'Invalid input on interval_seconds: interval_seconds must be a positive integer',
      ],
      [
        'interval_seconds negative',
        { interval_seconds: -60 },
        'Invalid input on interval_seconds: interval_seconds must be a positive integer',
      ],
      [
        'interval_seconds fractional',
        { interval_seconds: 1.5 },
        'Invalid input on interval_seconds: Invalid input: expected int, received number',
      ],
      [
        'interval_seconds fractional string',
        { interval_seconds: '2.5' },
        'Invalid input on interval_seconds: Invalid input: expected int, received number',
      ],
      [
        'interval_seconds non-numeric',
        { interval_seconds: 'monthly' },
        'Invalid input on interval_seconds: Invalid input: expected number, received NaN',
      ],
      [
        'interval_seconds "-1"',
        { interval_seconds: '-1' },
        'Invalid input on interval_seconds: interval_seconds must be a positive integer',
      ],
      // Several wrong fields: the first in the spec's order (merchant_id, name, token_amount, interval_seconds) wins.
      [
        'all four wrong',
        { merchant_id: 'x', name: '', token_amount: 0, interval_seconds: 0.5 },
        'Invalid input on merchant_id: merchant_id must be a valid UUID',
      ],
      [
        'last three wrong',
        { name: '', token_amount: 0, interval_seconds: 0.5 },
        'Invalid input on name: name cannot be empty',
      ],
      [
        'last two wrong',
        { token_amount: 'x', interval_seconds: 0.5 },
        'Invalid input on token_amount: Invalid input: expected number, received NaN',
      ],
    ];
    it.each(cases)('%s', async (_label, over, message) => {
      const res = await post(t.app, '/plans', planPayload(merchantId, over));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });

    it('an empty object reports the first field', async () => {
      const res = await post(t.app, '/plans', {});
      expect(res.body).toEqual({
        error: 'Invalid input on merchant_id: Invalid input: expected string, received undefined',
      });
    });

    it('validation comes before the database: a malformed body for an unknown merchant is 400, not 500', async () => {
      const res = await post(t.app, '/plans', planPayload(unknownId(), { name: '' }));
      expect(res.status).toBe(400);
    });
  });

  describe('404 and 500', () => {
    it('500 with the foreign-key message for a merchant_id that does not exist', async () => {
      const res = await post(t.app, '/plans', planPayload(unknownId()));
      expect(res).toMatchObject({
        status: 500,
        body: { error: 'insert or update on table "plans" violates foreign key constraint "plans_merchant_id_fkey"' },
      });
      expect(Object.keys(res.body)).toEqual(['error']);
    });

    it('404 Merchant not found for a soft-deleted merchant', async () => {
      const gone = await createMerchant(t.app);
      await del(t.app, `/merchants/${gone.id}`);
      const res = await post(t.app, '/plans', planPayload(gone.id));
      expect(res).toMatchObject({ status: 404, body: { error: 'Merchant not found' } });
    });
  });
});
