// NODE_ENV=production without DATABASE_URL: no embedded fallback (product.md). The service starts,
// validation still answers 400, anything needing the database is 500 "Database client not
// initialized", and /health says not ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { newWallet, planPayload } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp(null, { env: { NODE_ENV: 'production' } });
});
afterAll(() => t.close());

const NOT_INITIALIZED = { error: 'Database client not initialized' };
const id = '6f1c2d4e-0000-4000-8000-000000000000';

describe('production without DATABASE_URL', () => {
  it('has no database at all', () => {
    expect(t.deps.config.database).toEqual({ kind: 'none' });
    expect(t.deps.db.kind).toBe('none');
  });

  it.each([
    ['POST', '/merchants', { name: 'A', wallet_address: newWallet() }],
    ['GET', `/merchants/${id}`, undefined],
    ['DELETE', `/merchants/${id}`, undefined],
    ['POST', '/plans', planPayload(id)],
    ['GET', `/plans/${id}`, undefined],
    ['POST', '/subscriptions', { plan_id: id, customer_wallet_address: newWallet() }],
    ['GET', `/subscriptions/${id}`, undefined],
  ] as const)('%s %s: 500 Database client not initialized', async (method, url, payload) => {
    const res = await t.app.inject({ method, url, payload });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual(NOT_INITIALIZED);
  });

  it('validation still comes first: 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/plans', payload: planPayload(id, { token_amount: 0 }) });
    expect(res.statusCode).toBe(400);
  });

  it('/health: 503 with the same message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', ...NOT_INITIALIZED });
  });
});
