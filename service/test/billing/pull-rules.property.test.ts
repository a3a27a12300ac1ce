// Property: whatever sequence of outcomes the chain produces (confirmed, failed, dropped,
// refused, answers lost after sending), early and late calls, and reconciler rounds,
//  - two pulls that moved funds are never less than one interval apart;
//  - next_billing_date moves only when a confirmation is applied, to that moment + interval;
//  - a failed on-chain pull marks past_due, a confirmed one makes the subscription active;
//  - every pull that moved funds ends up confirmed exactly once in the database.
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemCtx } from '../../src/billing/context.ts';
import { buildPullVerbs } from '../../src/deps.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { createMerchant, createPlan, createSubscription, get } from '../support/factories.ts';
import { ScriptedChain, type Behaviour } from '../support/scripted-chain.ts';

const INTERVAL = 3600;
const BEHAVIOURS: Behaviour[] = [
  'confirm',
  'fail',
  'drop',
  'simulation-error',
  'rejected',
  'lost-but-lands',
  'lost-never-lands',
];

type Step = { kind: 'pull'; behaviour: Behaviour; advance: number } | { kind: 'reconcile'; advance: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('pull' as const),
    behaviour: fc.constantFrom(...BEHAVIOURS),
    advance: fc.integer({ min: 0, max: 2 * INTERVAL }),
  }),
  fc.record({ kind: fc.constant('reconcile' as const), advance: fc.integer({ min: 0, max: 120 }) }),
);

describe('pull schedule and state rules (property)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('pglite', { env: { CONTRACT_ID: `C${'A'.repeat(55)}` } });
  });
  afterAll(() => t?.close());

  it('hold over random sequences of outcomes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const key = Keypair.random();
        const chain = new ScriptedChain(t.clock, { publicKey: key.publicKey(), secret: key.secret() });
        const verbs = buildPullVerbs({ ...t.deps, gateway: chain });
        const merchant = await createMerchant(t.app, { wallet_address: key.publicKey() });
        const plan = await createPlan(t.app, merchant.id, { interval_seconds: INTERVAL });
        const sub = await createSubscription(t.app, plan.id);
        const read = async () => (await get(t.app, `/subscriptions/${sub.id}`)).body.subscription;
        const confirmedCount = async () =>
          (await verbs.listPulls({ ctx: systemCtx('test'), input: { id: sub.id } })).filter(
            (p) => p.status === 'confirmed',
          ).length;

        for (const s of steps) {
          t.clock.advance(s.advance);
          const before = await read();
          const confirmedBefore = await confirmedCount();
          if (s.kind === 'pull') {
            chain.script.splice(0, chain.script.length, s.behaviour);
            await verbs
              .triggerPull({
                ctx: systemCtx('test'),
                input: { subscription_id: sub.id, merchant_secret: key.secret() },
              })
              .catch(() => undefined);
          } else {
            await verbs.reconcilePending();
          }
          const after = await read();
          const confirmedAfter = await confirmedCount();
          if (after.next_billing_date !== before.next_billing_date) {
            expect(confirmedAfter).toBe(confirmedBefore + 1);
            expect(new Date(after.next_billing_date).getTime()).toBe(t.clock.now().getTime() + INTERVAL * 1000);
            expect(after.status).toBe('active');
          } else {
            expect(confirmedAfter).toBe(confirmedBefore);
          }
          const successes = chain.successes();
          for (let i = 1; i < successes.length; i++)
            expect(successes[i] - successes[i - 1]).toBeGreaterThanOrEqual(INTERVAL);
        }
        // Eventually every pull that moved funds is known, once.
        t.clock.advance(120);
        await verbs.reconcilePending();
        expect(await confirmedCount()).toBe(chain.successes().length);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
