// The default database: no DATABASE_URL -> embedded PGlite in ./data under the working directory,
// created on first start, and what was written is there after a restart.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startApp } from '../support/app.ts';
import { createMerchant, createPlan, createSubscription, get } from '../support/factories.ts';

const cwd = mkdtempSync(join(tmpdir(), 'billing-embedded-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

it('creates ./data on first start and keeps merchants, plans and subscriptions across a restart', async () => {
  const env = { DATABASE_URL: undefined, NODE_ENV: 'development' };
  expect(existsSync(join(cwd, 'data'))).toBe(false);

  const first = await startApp(null, { env, cwd });
  expect(first.deps.config.database).toEqual({ kind: 'pglite', dataDir: join(cwd, 'data') });
  const merchant = await createMerchant(first.app);
  const plan = await createPlan(first.app, merchant.id, { token_amount: '19.9900000' });
  const sub = await createSubscription(first.app, plan.id);
  await first.close();
  expect(existsSync(join(cwd, 'data', 'PG_VERSION'))).toBe(true);

  const second = await startApp(null, { env, cwd });
  try {
    expect(await get(second.app, `/merchants/${merchant.id}`)).toEqual({ status: 200, body: { merchant } });
    expect((await get(second.app, `/plans/${plan.id}`)).body.plan).toMatchObject({ ...plan, token_amount: 19.99 });
    expect(await get(second.app, `/subscriptions/${sub.id}`)).toEqual({
      status: 200,
      body: { subscription: { ...sub, health: { status: 'unknown', checked_at: null } } },
    });
  } finally {
    await second.close();
  }
});
