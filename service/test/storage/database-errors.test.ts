// The storage edge on both databases: driver failures become DATABASE BillingErrors with the
// driver's own message, a unit of work commits all or nothing, and named statements work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingError } from '../../src/billing/errors.ts';
import { sqlState } from '../../src/storage/database-errors.ts';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { newWallet } from '../support/factories.ts';

describe.each(TARGETS)('storage on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  it('a failing query throws BillingError DATABASE with the driver message and SQLSTATE', async () => {
    const err = await t.deps.db.query('SELECT 1/0').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingError);
    expect(err).toMatchObject({ code: 'DATABASE', message: 'division by zero' });
    expect(sqlState(err)).toBe('22012');
  });

  it("a unit of work rolls back every write when fn throws, and rethrows fn's own error unchanged", async () => {
    const wallet = newWallet();
    const mine = new Error('changed my mind');
    const thrown = await t.deps.uow
      .run(async (repos) => {
        await repos.merchants.insert({ name: 'Rolled back', wallet_address: wallet });
        throw mine;
      })
      .catch((e: unknown) => e);
    expect(thrown).toBe(mine);
    const rows = await t.deps.db.query('SELECT 1 FROM merchants WHERE wallet_address = $1', [wallet]);
    expect(rows.rows).toHaveLength(0);
  });

  it('a unit of work commits its writes together', async () => {
    const wallet = newWallet();
    const merchant = await t.deps.uow.run(async (repos) => {
      const m = await repos.merchants.insert({ name: 'Kept', wallet_address: wallet });
      await repos.plans.insert({
        merchant_id: m.id,
        name: 'P',
        token_amount: '1',
        interval_seconds: 60,
        token_contract_id: null,
        retry_schedule_seconds: [60],
        final_status: 'past_due',
      });
      return m;
    });
    expect((await t.deps.repos.merchants.findById(merchant.id))?.wallet_address).toBe(wallet);
  });

  it('a constraint inside a transaction surfaces as DATABASE with the constraint message', async () => {
    const err = await t.deps.uow
      .run((repos) =>
        repos.plans.insert({
          merchant_id: crypto.randomUUID(),
          name: 'P',
          token_amount: '1',
          interval_seconds: 1,
          token_contract_id: null,
          retry_schedule_seconds: [60],
          final_status: 'past_due',
        }),
      )
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'DATABASE', message: expect.stringContaining('plans_merchant_id_fkey') });
  });

  it('the table checks back up the API rules', async () => {
    const m = await t.deps.repos.merchants.insert({ name: 'Checks', wallet_address: newWallet() });
    const zero = await t.deps.repos.plans
      .insert({
        merchant_id: m.id,
        name: 'P',
        token_amount: '0',
        interval_seconds: 1,
        token_contract_id: null,
        retry_schedule_seconds: [60],
        final_status: 'past_due',
      })
      .catch((e) => e);
    expect(sqlState(zero)).toBe('23514');
    const blank = await t.deps.repos.merchants.insert({ name: '  ', wallet_address: newWallet() }).catch((e) => e);
    expect(sqlState(blank)).toBe('23514');
  });

  it('named statements can be run many times on every pooled connection', async () => {
    const m = await t.deps.repos.merchants.insert({ name: 'Named', wallet_address: newWallet() });
    const reads = await Promise.all(Array.from({ length: 20 }, () => t.deps.repos.merchants.findById(m.id)));
    expect(reads.every((r) => r?.id === m.id)).toBe(true);
  });
});
