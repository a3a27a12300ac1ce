// The outbox: every event type that exists today is written by the change that causes it, in the
// same transaction (none by a change that fails), with its actor; GET /events lists them newest
// first with type and object filters and a signed keyset cursor; GET /events/{id}. Pulls run
// against a scripted chain (the VaultGateway port) so that each outcome can be chosen.
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, isolatedEnvFor, startApp, type TestApp } from '../support/app.ts';
import { newWallet, planPayload, unknownId } from '../support/factories.ts';
import { ADMIN_KEY, accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { ScriptedChain } from '../support/scripted-chain.ts';

const CONTRACT = `C${'A'.repeat(55)}`;

describe.each(TARGETS)('events on %s', (target) => {
  let t: TestApp;
  let chain: ScriptedChain;
  const wallet = Keypair.random();
  let merchantId: string;
  let key: string;
  let keyId: string;
  let api: ReturnType<typeof as>;

  beforeAll(async () => {
    let clockRef: TestApp['clock'] | undefined;
    const lazyClock = { now: () => clockRef!.now() };
    chain = new ScriptedChain(lazyClock, { publicKey: wallet.publicKey(), secret: wallet.secret() });
    // A database of its own: reconcilePending below settles every pending attempt it can see,
    // and this scripted chain would declare other suites' attempts expired.
    t = await startApp(target, {
      env: { ...accountsEnv({ CONTRACT_ID: CONTRACT }), ...(await isolatedEnvFor(target)) },
      overrides: { gateway: chain },
    });
    clockRef = t.clock;
    const m = await merchantWithKey(t.app, wallet.publicKey());
    merchantId = m.merchant.id;
    key = m.key;
    api = as(t.app, key);
    keyId = (await api.get(`/merchants/${merchantId}/api-keys`)).body.keys[0].id;
  });
  afterAll(() => t?.close());

  const events = async (query = '') => {
    const res = await api.get(`/events${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.events as Record<string, any>[];
  };
  const types = async (objectId: string) =>
    (await events(`?object_id=${objectId}&limit=500`)).map((e) => e.type).reverse();
  const count = async () => (await events('?limit=500')).length;
  const pull = (secret = wallet.secret()) =>
    api.post('/trigger-pull', { subscription_id: subId, merchant_secret: secret });
  let subId = '';

  it('the merchant and its first key: api_key.created by the operator', async () => {
    const list = await events();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: 'api_key.created',
      merchant_id: merchantId,
      actor: { type: 'operator' },
      data: { object: { id: keyId, label: null } },
    });
    expect(list[0].data.object).not.toHaveProperty('api_key');
  });

  it('plan.created and subscription.created carry the object as the API returned it, and the key that acted', async () => {
    const plan = await api.post('/plans', planPayload(merchantId, { token_amount: '123456789012345678901234.5' }));
    expect(plan.status).toBe(201);
    const [planEvent] = await events('?type=plan.created');
    expect(planEvent.data.object).toEqual(plan.body.plan);
    expect(planEvent.actor).toEqual({ type: 'api_key', id: keyId });
    // The exact amount survives the outbox: the raw answer holds every digit.
    const raw = await t.app.inject({
      method: 'GET',
      url: `/events/${planEvent.id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(raw.body).toContain('"token_amount":123456789012345678901234.5');

    // A plan in fractions of a raw unit cannot be pulled: the subscription is on a whole one.
    const whole = await api.post('/plans', planPayload(merchantId, { interval_seconds: 2_592_000 }));
    const sub = await api.post('/subscriptions', { plan_id: whole.body.plan.id, customer_wallet_address: newWallet() });
    subId = sub.body.subscription.id;
    expect(await types(subId)).toEqual(['subscription.created']);
    expect((await api.get(`/events?object_id=${subId}`)).body.events[0].data.object).toEqual(sub.body.subscription);
  });

  it('a change that fails writes no event', async () => {
    const before = await count();
    expect((await as(t.app, ADMIN_KEY).post('/plans', planPayload(unknownId()))).status).toBe(500); // foreign key
    const plan = (await api.post('/plans', planPayload(merchantId))).body.plan;
    const wallet2 = newWallet();
    expect((await api.post('/subscriptions', { plan_id: plan.id, customer_wallet_address: wallet2 })).status).toBe(201);
    expect((await api.post('/subscriptions', { plan_id: plan.id, customer_wallet_address: wallet2 })).status).toBe(500); // unique pair
    expect((await api.del(`/merchants/${merchantId}/api-keys/${unknownId()}`)).status).toBe(404);
    expect(await count()).toBe(before + 2);
  });

  it('a pull that fails on-chain: pull.pending, pull.failed, subscription.past_due', async () => {
    chain.script.splice(0, chain.script.length, 'fail');
    expect((await pull()).status).toBe(502);
    expect(await types(subId)).toEqual(['subscription.created', 'subscription.past_due']);
    const pulls = (await api.get(`/subscriptions/${subId}/pulls`)).body.pulls;
    expect(await types(pulls[0].id)).toEqual(['pull.pending', 'pull.failed']);
    const [failed] = await events(`?object_id=${pulls[0].id}&type=pull.failed`);
    expect(failed.data.object).toEqual(pulls[0]);
    expect(failed.data.object.tx_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a confirmed pull of a past_due subscription: pull.succeeded and subscription.reactivated', async () => {
    chain.script.splice(0, chain.script.length, 'confirm');
    expect((await pull()).status).toBe(200);
    expect(await types(subId)).toEqual(['subscription.created', 'subscription.past_due', 'subscription.reactivated']);
    const pulls = (await api.get(`/subscriptions/${subId}/pulls`)).body.pulls;
    expect(await types(pulls[0].id)).toEqual(['pull.pending', 'pull.succeeded']);
    const [ok] = await events(`?object_id=${pulls[0].id}&type=pull.succeeded`);
    expect(ok.data.object).toMatchObject({ status: 'confirmed', tx_hash: pulls[0].tx_hash });
  });

  it('a refused pull writes nothing; one refused at submission ends pull.failed (rejected); an active subscription stays quiet', async () => {
    const before = await count();
    expect((await pull()).body.code).toBe('too_early');
    expect((await pull(Keypair.random().secret())).status).toBe(400); // the scripted chain knows one key only
    expect(await count()).toBe(before);

    t.clock.advance(2_592_000);
    chain.script.splice(0, chain.script.length, 'rejected');
    expect((await pull()).status).toBe(500);
    const pulls = (await api.get(`/subscriptions/${subId}/pulls`)).body.pulls;
    expect(pulls[0].status).toBe('rejected');
    expect(await types(pulls[0].id)).toEqual(['pull.pending', 'pull.failed']);
    chain.script.splice(0, chain.script.length, 'confirm');
    expect((await pull()).status).toBe(200);
    // Already active: a confirmed pull is no reactivation.
    expect((await types(subId)).filter((x) => x === 'subscription.reactivated')).toHaveLength(1);
  });

  it('the reconciler is the actor of outcomes it observes', async () => {
    t.clock.advance(2_592_000);
    chain.script.splice(0, chain.script.length, 'lost-but-lands');
    expect((await pull()).status).toBe(202);
    await t.deps.pullVerbs.reconcilePending();
    const pulls = (await api.get(`/subscriptions/${subId}/pulls`)).body.pulls;
    const [ok] = await events(`?object_id=${pulls[0].id}&type=pull.succeeded`);
    expect(ok.actor).toEqual({ type: 'system', job: 'reconciler' });
  });

  it('api_key.created / api_key.revoked and signing_key.set / signing_key.removed, with their actor', async () => {
    const created = await api.post(`/merchants/${merchantId}/api-keys`, { label: 'cron' });
    const id = created.body.key.id;
    expect((await as(t.app, ADMIN_KEY).del(`/merchants/${merchantId}/api-keys/${id}`)).status).toBe(200);
    const keyEvents = await events(`?object_id=${id}`);
    expect(keyEvents.map((e) => [e.type, e.actor.type])).toEqual([
      ['api_key.revoked', 'operator'],
      ['api_key.created', 'api_key'],
    ]);
    expect(keyEvents[0].data.object).toMatchObject({ id, label: 'cron', revoked_at: expect.any(String) });
    expect(JSON.stringify(keyEvents)).not.toContain(created.body.api_key);

    expect((await api.put(`/merchants/${merchantId}/signing-key`, { secret: wallet.secret() })).status).toBe(200);
    expect((await api.del(`/merchants/${merchantId}/signing-key`)).status).toBe(200);
    const signing = await events(`?object_id=${merchantId}`);
    expect(signing.map((e) => e.type)).toEqual(['signing_key.removed', 'signing_key.set']);
    expect(signing[0].data.object).toEqual({ public_key: wallet.publicKey(), created_at: expect.any(String) });
    expect(JSON.stringify(signing)).not.toContain(wallet.secret());
  });

  it('lists newest first through a signed keyset cursor, filters by type, and reads one event', async () => {
    const all = await events('?limit=500');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await api.get(`/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.body.events.map((e: { id: string }) => e.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));
    const times = all.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await events('?type=pull.succeeded')).every((e) => e.type === 'pull.succeeded')).toBe(true);
    expect((await api.get('/events?cursor=bogus')).status).toBe(400);
    expect((await api.get('/events?type=plan.deleted')).status).toBe(400);
    const one = await api.get(`/events/${all[0].id}`);
    expect(one.body).toEqual({ event: all[0] });
  });

  it("another merchant's key, an unknown id and no key are refused", async () => {
    const other = await merchantWithKey(t.app);
    const [mine] = await events();
    expect(await as(t.app, other.key).get(`/events/${mine.id}`)).toMatchObject({
      status: 404,
      body: { error: 'Event not found' },
    });
    expect((await as(t.app, other.key).get('/events')).body.events.map((e: { type: string }) => e.type)).toEqual([
      'api_key.created',
    ]);
    expect((await api.get(`/events/${unknownId()}`)).status).toBe(404);
    expect((await as(t.app).get('/events')).status).toBe(401);
    // The operator sees every merchant's events, or one merchant's.
    const admin = await as(t.app, ADMIN_KEY).get(`/events?merchant_id=${merchantId}&limit=500`);
    expect(admin.body.events.map((e: { id: string }) => e.id)).toEqual((await events('?limit=500')).map((e) => e.id));
  });
});
