// Property: whatever sequence of outcomes the chain produces (confirmed, failed, dropped,
// refused, answers lost after sending), early and late calls, and reconciler rounds,
//  - two pulls that moved funds are never less than one interval apart;
//  - next_billing_date moves only when a confirmation is applied, to that moment + interval;
//  - a failed on-chain pull marks past_due, a confirmed one makes the subscription active;
//  - every pull that moved funds ends up confirmed exactly once in the database;
//  - a pull is refused only for a reason the step gave it (too early, a refusal the chain was
//    told to make): any other error, a TypeError included, fails the property.
// Two runs: many quick ones against a scripted chain (every outcome on demand, no waiting), and a
// few against the local network through the real gateway, where one merchant's concurrent pulls
// go through its per-source queue and outcomes are learned by polling, at the network's pace.
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemCtx } from '../../src/billing/context.ts';
import { BillingError } from '../../src/billing/errors.ts';
import { buildPullVerbs } from '../../src/deps.ts';
import { startApp, type TestApp } from '../support/app.ts';
import type { TestClock } from '../support/clock.ts';
import { startDevnet } from '../support/devnet.ts';
import { createMerchant, createPlan, createSubscription, get } from '../support/factories.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, subscriptionOf, type PullSetup } from '../support/pull-fixture.ts';
import { ScriptedChain, type Behaviour } from '../support/scripted-chain.ts';

/**
 * A pull may be refused (BillingError PULL_REJECTED) only with one of the `allowed` codes, each of
 * which the step had a reason for; anything else is rethrown and fails the property.
 */
function expectRefusal(err: unknown, allowed: string[]): undefined {
  if (err instanceof BillingError && err.code === 'PULL_REJECTED' && allowed.includes(String(err.details?.code)))
    return undefined;
  throw err;
}

const isDue = (sub: { next_billing_date: string }, now: Date) => new Date(sub.next_billing_date) <= now;

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

describe('pull schedule and state rules (property, scripted chain)', () => {
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
            const allowed = [
              ...(isDue(before, t.clock.now()) ? [] : ['too_early']),
              ...(s.behaviour === 'simulation-error' ? ['simulation_failed'] : []),
              ...(s.behaviour === 'rejected' ? ['submission_failed'] : []),
            ];
            await verbs
              .triggerPull({
                ctx: systemCtx('test'),
                input: { subscription_id: sub.id, merchant_secret: key.secret() },
              })
              .catch((err: unknown) => expectRefusal(err, allowed));
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

// The local network: real transactions, the gateway's per-merchant queue and its polling, at the
// network's pace (1 s ledgers) and on the wall clock: the plan's interval is a few seconds and
// steps wait real time. Three subscriptions of one merchant share its account's sequence number,
// so pulls fired together wait for each other in the queue. Faults are armed for one step each.
// Every run gets a network and an app of its own: the last step moves ledger time past the
// attempts' time bounds, which no later run should inherit.
type Fault = 'none' | 'fail-next' | 'drop' | 'send-error' | 'try-again-later';
const FAULTS: Record<Exclude<Fault, 'none'>, Record<string, unknown>> = {
  'fail-next': { kind: 'fail-next' },
  drop: { kind: 'drop' },
  'send-error': { kind: 'send', status: 'ERROR' },
  'try-again-later': { kind: 'send', status: 'TRY_AGAIN_LATER' },
};
type RealStep = { kind: 'pull'; fault: Fault; subs: number[]; waitMs: number } | { kind: 'reconcile'; waitMs: number };

const SUBS = 3;
const REAL_INTERVAL = 3;
/**
 * The vault checks the interval against the latest closed ledger, which lags the wall clock by up
 * to a ledger: a pull the service finds due by less than this may still be too early on-chain.
 */
const LEDGER_LAG_MS = 2_000;
const waitMs = fc.constantFrom(0, 0, 1_000, REAL_INTERVAL * 1000, REAL_INTERVAL * 1000 + 500);
const realStep: fc.Arbitrary<RealStep> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('pull' as const),
      fault: fc.constantFrom<Fault>('none', 'none', 'fail-next', 'drop', 'send-error', 'try-again-later'),
      subs: fc.uniqueArray(fc.integer({ min: 0, max: SUBS - 1 }), { minLength: 1, maxLength: SUBS }),
      waitMs,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconcile' as const), waitMs }) },
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wallClock: TestClock = {
  now: () => new Date(),
  set: () => {
    throw new Error('the wall clock cannot be set');
  },
  advance: () => {
    throw new Error('the wall clock cannot be moved');
  },
};

async function realRun(steps: RealStep[]): Promise<void> {
  const devnet = await startDevnet({ ledgerMs: 1000 });
  const t = await startApp('pglite', {
    env: chainEnv(devnet, { TX_POLL_TIMEOUT_MS: '3000', TX_POLL_INTERVAL_MS: '250' }),
    clock: wallClock,
  });
  try {
    const first = await setUpPull(t, devnet, { intervalSeconds: REAL_INTERVAL });
    const others = await Promise.all(
      Array.from({ length: SUBS - 1 }, () =>
        setUpPull(t, devnet, {
          intervalSeconds: REAL_INTERVAL,
          merchant: first.merchant,
          merchantId: first.merchantId,
        }),
      ),
    );
    const subs = [first, ...others];
    const verbs = t.deps.pullVerbs;
    const confirmed = async (s: PullSetup) =>
      (await pullsOf(t, s.subscriptionId)).filter((p) => p.status === 'confirmed').length;
    /** When each subscription's confirmations were applied (next_billing_date − interval), ms. */
    const appliedAt: number[][] = subs.map(() => []);

    for (const step of steps) {
      await sleep(step.waitMs);
      const before = await Promise.all(subs.map((s) => subscriptionOf(t, s.subscriptionId)));
      const confirmedBefore = await Promise.all(subs.map(confirmed));
      const results = new Map<number, string>();
      const startedAt = Date.now();
      if (step.kind === 'pull') {
        if (step.fault !== 'none') await devnet.control('/faults', FAULTS[step.fault]);
        await Promise.all(
          step.subs.map(async (i) => {
            const dueAt = new Date(before[i].next_billing_date).getTime();
            const allowed = [
              ...(dueAt + LEDGER_LAG_MS > startedAt ? ['too_early'] : []),
              ...(step.fault === 'send-error' ? ['submission_failed'] : []),
            ];
            const result = await verbs
              .triggerPull({
                ctx: systemCtx('test'),
                input: { subscription_id: subs[i].subscriptionId, merchant_secret: first.merchant.secret() },
              })
              .catch((err: unknown) => expectRefusal(err, allowed));
            if (result) results.set(i, result.kind);
          }),
        );
      } else {
        await verbs.reconcilePending();
      }
      const endedAt = Date.now();
      await devnet.control('/faults/clear', {});
      // A pull retried within the same second as a refused send used to rebuild a byte-identical
      // envelope (same sequence, time bound and fee) whose hash was already recorded (500 on
      // pulls_tx_hash_key); builds now go past every recorded time bound, so no wait here.
      for (const [i, s] of subs.entries()) {
        const after = await subscriptionOf(t, s.subscriptionId);
        const confirmedAfter = await confirmed(s);
        if (after.next_billing_date !== before[i].next_billing_date) {
          expect(confirmedAfter).toBe(confirmedBefore[i] + 1);
          const applied = new Date(after.next_billing_date).getTime() - REAL_INTERVAL * 1000;
          expect(applied).toBeGreaterThanOrEqual(startedAt);
          expect(applied).toBeLessThanOrEqual(endedAt);
          expect(after.status).toBe('active');
          appliedAt[i].push(applied);
        } else {
          expect(confirmedAfter).toBe(confirmedBefore[i]);
        }
        if (results.get(i) === 'failed') expect(after.status).toBe('past_due');
        if (results.get(i) === 'confirmed') expect(after.status).toBe('active');
        for (let k = 1; k < appliedAt[i].length; k++)
          expect(appliedAt[i][k] - appliedAt[i][k - 1]).toBeGreaterThanOrEqual(REAL_INTERVAL * 1000);
      }
    }
    // Ledger time moves past every attempt's time bound (30 s and the margin); one reconciler
    // round settles what is left: each pull that moved funds on the network is confirmed once.
    await devnet.control('/advance-time', { seconds: 60 });
    await devnet.control('/close-ledger', {});
    await verbs.reconcilePending();
    const onChain = (await pullsOnChain(devnet, first.merchant.publicKey())).filter((tx) => tx.status === 'success');
    for (const s of subs) {
      const moved = onChain.filter((tx) => tx.args[0] === s.user.publicKey()).length;
      expect(await confirmed(s), s.subscriptionId).toBe(moved);
    }
  } finally {
    await t.close();
    await devnet.stop();
  }
}

describe('pull schedule and state rules (property, local network: real queue and polling)', () => {
  it("hold with real transactions, one merchant's concurrent pulls queued and polled", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(realStep, { minLength: 2, maxLength: 5 }), realRun),
      // Each run costs seconds of real time: report the first counterexample as found, unshrunk.
      { numRuns: 3, endOnFailure: true },
    );
  }, 300_000);
});
