// Two observers of one attempt disagree: one records it expired (an inference from NOT_FOUND past
// its time bound), the other, holding the attempt as it read it while pending, then sees it in a
// ledger as SUCCESS. The ledger wins: the record becomes confirmed, says why, and the schedule
// moves, once. Pulls run against a scripted chain (the VaultGateway port) so the order is chosen.
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemCtx } from '../../src/billing/context.ts';
import { settleAttempt } from '../../src/billing/pulls/settle-attempt.ts';
import { isolatedEnvFor, startApp, TARGETS, type TestApp } from '../support/app.ts';
import { planPayload } from '../support/factories.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { ScriptedChain } from '../support/scripted-chain.ts';

const CONTRACT = `C${'D'.repeat(55)}`;
const HOUR = 3600;

describe.each(TARGETS)('a SUCCESS seen after another observer recorded the attempt expired, on %s', (target) => {
  let t: TestApp;
  let chain: ScriptedChain;
  const wallet = Keypair.random();

  beforeAll(async () => {
    let clockRef: TestApp['clock'] | undefined;
    chain = new ScriptedChain(
      { now: () => clockRef!.now() },
      { publicKey: wallet.publicKey(), secret: wallet.secret() },
    );
    t = await startApp(target, {
      env: { ...accountsEnv({ CONTRACT_ID: CONTRACT }), ...(await isolatedEnvFor(target)) },
      overrides: { gateway: chain },
    });
    clockRef = t.clock;
  });
  afterAll(() => t?.close());

  it('the record follows the ledger: confirmed with the reason, pull.succeeded, the date moved, once', async () => {
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    const api = as(t.app, key);
    const plan = (await api.post('/plans', planPayload(merchant.id, { interval_seconds: HOUR }))).body.plan;
    const sub = (
      await api.post('/subscriptions', { plan_id: plan.id, customer_wallet_address: Keypair.random().publicKey() })
    ).body.subscription;
    const dateBefore = sub.next_billing_date;

    t.clock.set('2033-03-01T00:00:00.000Z');
    chain.script.splice(0, chain.script.length, 'lost-never-lands');
    const first = await api.post('/trigger-pull', { subscription_id: sub.id, merchant_secret: wallet.secret() });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    // Observer A reads the attempt while it is pending…
    const held = await t.deps.repos.pulls.findPending(sub.id);
    expect(held?.tx_hash).toBe(first.body.txHash);
    const ctx = (await t.deps.repos.pulls.loadContext(sub.id))!;

    // …observer B, past the time bound, records it expired.
    t.clock.advance(60);
    expect((await t.deps.pullVerbs.reconcilePending()).expired).toBe(1);
    const pullsOf = async () => (await api.get(`/subscriptions/${sub.id}/pulls`)).body.pulls;
    expect(await pullsOf()).toMatchObject([{ status: 'expired' }]);

    // Then A sees the transaction in ledger 7.
    const seenAt = t.clock.now();
    const deps = { uow: t.deps.uow, clock: t.deps.clock, gateway: chain, contractId: CONTRACT, emit: t.deps.emit };
    const obs = {
      status: 'SUCCESS' as const,
      ledger: 7,
      latestLedger: 8,
      latestLedgerCloseTime: Math.floor(seenAt.getTime() / 1000),
      oldestLedger: 1,
    };
    const actor = systemCtx('reconciler').actor;
    expect(await settleAttempt(deps, held!, ctx, obs, actor)).toEqual({ kind: 'confirmed', txHash: held!.tx_hash });
    const [pull] = await pullsOf();
    expect(pull).toMatchObject({ tx_hash: held!.tx_hash, status: 'confirmed', ledger: 7 });
    expect(pull.discrepancy).toMatch(/^seen successful on-chain after it had been recorded as not landed/);
    const next = new Date(seenAt.getTime() + HOUR * 1000).toISOString();
    const subscription = async () => (await api.get(`/subscriptions/${sub.id}`)).body.subscription;
    expect((await subscription()).next_billing_date).toBe(next);
    expect(next).not.toBe(dateBefore);
    const types = async () =>
      ((await api.get(`/events?object_id=${pull.id}`)).body.events as { type: string }[]).map((e) => e.type).reverse();
    expect(await types()).toEqual(['pull.pending', 'pull.failed', 'pull.succeeded']);

    // A third observer with the same stale copy changes nothing more.
    t.clock.advance(HOUR);
    expect(await settleAttempt(deps, held!, ctx, obs, actor)).toEqual({ kind: 'confirmed', txHash: held!.tx_hash });
    expect((await subscription()).next_billing_date).toBe(next);
    expect(await types()).toEqual(['pull.pending', 'pull.failed', 'pull.succeeded']);
  });

  it('a FAILED attempt is never turned into a success: it was seen in a ledger, not inferred', async () => {
    const { merchant, key } = await merchantWithKey(t.app, Keypair.random().publicKey());
    const api = as(t.app, key);
    const plan = (await api.post('/plans', planPayload(merchant.id, { interval_seconds: HOUR }))).body.plan;
    const sub = (
      await api.post('/subscriptions', { plan_id: plan.id, customer_wallet_address: Keypair.random().publicKey() })
    ).body.subscription;
    const held = await t.deps.uow.run((tx) =>
      tx.pulls.insertPending({
        subscription_id: sub.id,
        merchant_id: merchant.id,
        amount: plan.token_amount,
        tx_hash: 'f'.repeat(64),
        envelope_xdr: 'AAAA',
        source_account: merchant.wallet_address,
        max_time: new Date(t.clock.now().getTime() + 30_000),
        min_ledger: 1,
        origin: 'manual',
        now: t.clock.now(),
      }),
    );
    await t.deps.uow.run((tx) => tx.pulls.resolve(held!.id, { status: 'failed', ledger: 9, at: t.clock.now() }));
    const ctx = (await t.deps.repos.pulls.loadContext(sub.id))!;
    const deps = { uow: t.deps.uow, clock: t.deps.clock, gateway: chain, contractId: CONTRACT, emit: t.deps.emit };
    const obs = { status: 'SUCCESS' as const, ledger: 9, latestLedger: 9, latestLedgerCloseTime: 0, oldestLedger: 1 };
    await settleAttempt(deps, held!, ctx, obs, systemCtx('reconciler').actor);
    expect((await api.get(`/subscriptions/${sub.id}/pulls`)).body.pulls).toMatchObject([{ status: 'failed' }]);
    expect((await api.get(`/subscriptions/${sub.id}`)).body.subscription.next_billing_date).toBe(sub.next_billing_date);
  });
});
