// Property of the status machine with the collector in the loop: over random sequences of chain
// outcomes, collector rounds, manual pulls, clock moves, cancellations, pauses and resumes,
//  - two pulls that moved funds are never less than one interval apart;
//  - nothing is ever sent for a subscription that is canceled or paused;
//  - a canceled subscription stays canceled;
//  - every try the dunning counts is in the pull history (a skipped try or a failed pull).
// The chain is scripted (test/support/scripted-chain.ts); every chain test runs on the local network.
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemCtx } from '../../src/billing/context.ts';
import { buildCollection, buildPullVerbs } from '../../src/deps.ts';
import { startCollector } from '../../src/jobs/collector.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { createPlan, createSubscription, get, post } from '../support/factories.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { ScriptedChain, type Behaviour } from '../support/scripted-chain.ts';

const INTERVAL = 3600;
const BEHAVIOURS: Behaviour[] = ['confirm', 'fail', 'drop', 'simulation-error', 'rejected', 'lost-but-lands'];
const TOKEN = `C${'A'.repeat(55)}`;

type Step =
  | { kind: 'collect' | 'pull'; behaviour: Behaviour; advance: number }
  | { kind: 'cancel' | 'cancel_at_end' | 'pause' | 'resume' | 'reconcile'; advance: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('collect' as const),
      behaviour: fc.constantFrom(...BEHAVIOURS),
      advance: fc.integer({ min: 0, max: 2 * INTERVAL }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pull' as const),
      behaviour: fc.constantFrom(...BEHAVIOURS),
      advance: fc.integer({ min: 0, max: 2 * INTERVAL }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        'cancel' as const,
        'cancel_at_end' as const,
        'pause' as const,
        'resume' as const,
        'reconcile' as const,
      ),
      advance: fc.integer({ min: 0, max: INTERVAL }),
    }),
  },
);

describe('status rules with the collector (property)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('pglite', { env: { CONTRACT_ID: `C${'B'.repeat(55)}`, ...accountsEnv() } });
  });
  afterAll(() => t?.close());

  it('hold over random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
        const wallet = Keypair.random();
        const chain = new ScriptedChain(t.clock, { publicKey: wallet.publicKey(), secret: wallet.secret() });
        chain.inspection = {
          vault: { token: TOKEN, amountPerInterval: 100n, intervalSeconds: BigInt(INTERVAL), lastPullTimestamp: 0n },
          allowance: { amount: 1_000_000n, liveUntilLedger: 1_000_000, revoked: false },
          balance: 1_000_000n,
          latestLedger: 1,
          ledgerTime: 0,
        };
        const pullVerbs = buildPullVerbs({ ...t.deps, gateway: chain });
        const collection = buildCollection({ ...t.deps, gateway: chain, pullVerbs });
        const collector = startCollector(collection, {
          intervalMs: 1000,
          concurrency: 2,
          log: pino({ level: 'silent' }),
          autoStart: false,
        });
        const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
        expect(
          (await as(t.app, key).put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() })).status,
        ).toBe(200);
        const plan = await createPlan(t.app, merchant.id, {
          interval_seconds: INTERVAL,
          token_amount: 100,
          retry_schedule_seconds: [600, 1200],
        });
        const sub = await createSubscription(t.app, plan.id);
        const read = async () => (await get(t.app, `/subscriptions/${sub.id}`)).body.subscription;
        const history = async () => await pullVerbs.listPulls({ ctx: systemCtx('test'), input: { id: sub.id } });

        for (const s of steps) {
          t.clock.advance(s.advance);
          const before = await read();
          const sentBefore = chain.txs.size;
          if (s.kind === 'collect' || s.kind === 'pull') chain.script.splice(0, chain.script.length, s.behaviour);
          if (s.kind === 'collect') await collector.runOnce();
          if (s.kind === 'pull')
            await pullVerbs
              .triggerPull({
                ctx: systemCtx('test'),
                input: { subscription_id: sub.id, merchant_secret: wallet.secret() },
              })
              .catch(() => undefined);
          if (s.kind === 'reconcile') await pullVerbs.reconcilePending();
          if (s.kind === 'cancel') await post(t.app, `/subscriptions/${sub.id}/cancel`, {});
          if (s.kind === 'cancel_at_end') await post(t.app, `/subscriptions/${sub.id}/cancel`, { at_period_end: true });
          if (s.kind === 'pause') await post(t.app, `/subscriptions/${sub.id}/pause`, {});
          if (s.kind === 'resume') await post(t.app, `/subscriptions/${sub.id}/resume`, {});
          const after = await read();
          if (before.status === 'canceled' || before.status === 'paused')
            expect(chain.txs.size, `sent while ${before.status}`).toBe(sentBefore);
          if (before.status === 'canceled') expect(after.status).toBe('canceled');
          // Every try the dunning counts is a row of the history (a skipped try or a failed pull).
          const [{ tries }] = (
            await t.deps.db.query<{ tries: number }>('SELECT dunning_tries AS tries FROM subscriptions WHERE id = $1', [
              sub.id,
            ])
          ).rows as [{ tries: number }];
          const recorded = (await history()).filter(
            (p) => p.origin === 'collector' && (p.status === 'skipped' || p.status === 'failed'),
          ).length;
          expect(tries).toBeLessThanOrEqual(recorded);
          const successes = chain.successes();
          for (let i = 1; i < successes.length; i++)
            expect(successes[i]! - successes[i - 1]!).toBeGreaterThanOrEqual(INTERVAL);
        }
        await collector.stop();
      }),
      { numRuns: 25 },
    );
  }, 180_000);
});
