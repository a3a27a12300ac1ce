// Written once for every id the API takes: a malformed id is always 400, never 404 (spec section
// 7); a well-formed one that matches nothing is 404 (or, for merchant_id on POST /plans, the
// foreign-key 500 the spec asks for). Runs on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { newWallet, planPayload } from '../support/factories.ts';

const MALFORMED = [
  '1',
  'not-a-uuid',
  '6f1c2d4e-0000-4000-8000-00000000000',
  '6f1c2d4e-0000-4000-8000-00000000000g',
  '{6f1c2d4e-0000-4000-8000-000000000000}',
  '6f1c2d4e000040008000000000000000',
];
const WELL_FORMED = [
  '00000000-0000-0000-0000-000000000000',
  '11111111-1111-1111-1111-111111111111',
  'ABCDEF01-2345-6789-ABCD-EF0123456789',
];

type Case = {
  label: string;
  field: string;
  request: (id: string) => { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object };
};

const CASES: Case[] = [
  {
    label: 'GET /plans/{id}',
    field: 'id',
    request: (id) => ({ method: 'GET', url: `/plans/${encodeURIComponent(id)}` }),
  },
  {
    label: 'GET /subscriptions/{id}',
    field: 'id',
    request: (id) => ({ method: 'GET', url: `/subscriptions/${encodeURIComponent(id)}` }),
  },
  {
    label: 'GET /merchants/{id}',
    field: 'id',
    request: (id) => ({ method: 'GET', url: `/merchants/${encodeURIComponent(id)}` }),
  },
  {
    label: 'DELETE /merchants/{id}',
    field: 'id',
    request: (id) => ({ method: 'DELETE', url: `/merchants/${encodeURIComponent(id)}` }),
  },
  {
    label: 'POST /plans merchant_id',
    field: 'merchant_id',
    request: (id) => ({ method: 'POST', url: '/plans', payload: planPayload(id) }),
  },
  {
    label: 'POST /subscriptions plan_id',
    field: 'plan_id',
    request: (id) => ({
      method: 'POST',
      url: '/subscriptions',
      payload: { plan_id: id, customer_wallet_address: newWallet() },
    }),
  },
];

const reason = (field: string) =>
  field === 'id' ? 'id parameter must be a valid UUID' : `${field} must be a valid UUID`;

describe.each(TARGETS)('UUID fields on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  describe.each(CASES)('$label', ({ field, request }) => {
    it.each(MALFORMED)('400 for %j', async (id) => {
      const res = await t.app.inject(request(id));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `Invalid input on ${field}: ${reason(field)}` });
    });

    it.each(WELL_FORMED)('not 400 for %j', async (id) => {
      const res = await t.app.inject(request(id));
      expect(res.statusCode).toBe(field === 'merchant_id' ? 500 : 404);
    });
  });
});
