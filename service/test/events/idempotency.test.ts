// Idempotency-Key on every POST (Stripe's rules, product.md): the first answer is replayed (with
// `idempotent-replayed: true`) and nothing runs twice; the same key with other parameters is 422;
// while the first request runs, 409; after 24 h the key is new again. Then what is never stored
// (secrets), scopes (per API key; keyless requests share one), a stored 500, a refused body, and a
// real race on /trigger-pull that never sends a second transaction. Both databases.
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, startApp, type TestApp } from '../support/app.ts';
import { newWallet, planPayload, unknownId } from '../support/factories.ts';
import { ADMIN_KEY, accountsEnv, as, merchantWithKey, type Reply } from '../support/keys.ts';
import { ScriptedChain } from '../support/scripted-chain.ts';

const CONTRACT = `C${'A'.repeat(55)}`;

/** A scripted chain whose next preparePull waits until released: a request held mid-flight. */
class GatedChain extends ScriptedChain {
  gate: Promise<void> | undefined;
  sent = 0;
  override async preparePull() {
    await this.gate;
    return super.preparePull();
  }
  override async send(pull: Parameters<ScriptedChain['send']>[0]) {
    this.sent++;
    return super.send(pull);
  }
}

interface Fixture {
  t: TestApp;
  chain: GatedChain;
  merchantId: string;
  key: string;
  keyId: string;
  wallet: Keypair;
}

interface Case {
  name: string;
  /** The credential that sends it: the merchant's key, or none (open mode). */
  as: 'merchant' | 'operator';
  /** Builds what the request needs; returns the request, one with other parameters, and a probe of what it changes. */
  setup(
    f: Fixture,
  ): Promise<{
    url: string;
    body: Record<string, unknown>;
    other: Record<string, unknown>;
    probe: () => Promise<unknown>;
  }>;
}

const count = (t: TestApp, sql: string, params: unknown[]) => async () =>
  (await t.deps.db.query<{ n: string }>(sql, params)).rows[0].n;

const CASES: Case[] = [
  {
    name: 'POST /merchants',
    as: 'operator',
    async setup({ t }) {
      const name = `Idem ${crypto.randomUUID()}`;
      return {
        url: '/merchants',
        body: { name, wallet_address: newWallet() },
        other: { name: `${name} 2`, wallet_address: newWallet() },
        probe: count(t, 'SELECT count(*) AS n FROM merchants WHERE name LIKE $1', [`${name}%`]),
      };
    },
  },
  {
    name: 'POST /merchants/{id}/api-keys',
    as: 'merchant',
    async setup({ t, merchantId }) {
      return {
        url: `/merchants/${merchantId}/api-keys`,
        body: { label: 'a' },
        other: { label: 'b' },
        probe: count(t, 'SELECT count(*) AS n FROM api_keys WHERE merchant_id = $1', [merchantId]),
      };
    },
  },
  {
    name: 'POST /plans',
    as: 'merchant',
    async setup({ t, merchantId }) {
      return {
        url: '/plans',
        body: planPayload(merchantId),
        other: planPayload(merchantId, { name: 'Other' }),
        probe: count(t, 'SELECT count(*) AS n FROM plans WHERE merchant_id = $1', [merchantId]),
      };
    },
  },
  {
    name: 'POST /subscriptions',
    as: 'merchant',
    async setup({ t, merchantId, key }) {
      const plan = (await as(t.app, key).post('/plans', planPayload(merchantId))).body.plan;
      return {
        url: '/subscriptions',
        body: { plan_id: plan.id, customer_wallet_address: newWallet() },
        other: { plan_id: plan.id, customer_wallet_address: newWallet() },
        probe: count(t, 'SELECT count(*) AS n FROM subscriptions WHERE plan_id = $1', [plan.id]),
      };
    },
  },
  {
    name: 'POST /trigger-pull',
    as: 'merchant',
    async setup({ t, merchantId, key, wallet }) {
      const plan = (await as(t.app, key).post('/plans', planPayload(merchantId))).body.plan;
      const sub = (
        await as(t.app, key).post('/subscriptions', { plan_id: plan.id, customer_wallet_address: newWallet() })
      ).body.subscription;
      return {
        url: '/trigger-pull',
        body: { subscription_id: sub.id, merchant_secret: wallet.secret() },
        other: { subscription_id: sub.id },
        probe: count(t, 'SELECT count(*) AS n FROM pulls WHERE subscription_id = $1', [sub.id]),
      };
    },
  },
  {
    name: 'POST /webhook-endpoints',
    as: 'merchant',
    async setup({ t, merchantId }) {
      return {
        url: '/webhook-endpoints',
        body: { url: 'http://127.0.0.1:9/a', event_types: ['*'] },
        other: { url: 'http://127.0.0.1:9/b', event_types: ['*'] },
        probe: count(t, 'SELECT count(*) AS n FROM webhook_endpoints WHERE merchant_id = $1', [merchantId]),
      };
    },
  },
  {
    name: 'POST /webhook-endpoints/{id}/rotate-secret',
    as: 'merchant',
    async setup({ t, key }) {
      const id = (await as(t.app, key).post('/webhook-endpoints', { url: 'http://127.0.0.1:9/r', event_types: ['*'] }))
        .body.webhook_endpoint.id;
      return {
        url: `/webhook-endpoints/${id}/rotate-secret`,
        body: {},
        other: { overlap_seconds: 5 },
        probe: async () =>
          (await t.deps.db.query<{ c: string }>('SELECT ciphertext AS c FROM webhook_endpoints WHERE id = $1', [id]))
            .rows[0].c,
      };
    },
  },
  {
    name: 'POST /events/{id}/redeliver',
    as: 'merchant',
    async setup({ t, key, merchantId }) {
      await as(t.app, key).post('/webhook-endpoints', { url: 'http://127.0.0.1:9/e', event_types: ['plan.created'] });
      const plan = (await as(t.app, key).post('/plans', planPayload(merchantId))).body.plan;
      const event = (await as(t.app, key).get(`/events?object_id=${plan.id}`)).body.events[0];
      const other = (await as(t.app, key).get(`/events?type=api_key.created`)).body.events[0];
      return {
        url: `/events/${event.id}/redeliver`,
        body: {},
        other: {},
        // Another event is another path: the parameters differ.
        otherUrl: `/events/${other.id}/redeliver`,
        probe: async () =>
          (
            await t.deps.db.query<{ o: string }>(
              'SELECT opened_at::text AS o FROM webhook_deliveries WHERE event_id = $1',
              [event.id],
            )
          ).rows[0].o,
      } as never;
    },
  },
];

describe.each(TARGETS)('Idempotency-Key on %s', (target) => {
  let f: Fixture;

  beforeAll(async () => {
    const wallet = Keypair.random();
    let clock: TestApp['clock'] | undefined;
    const chain = new GatedChain(
      { now: () => clock!.now() },
      { publicKey: wallet.publicKey(), secret: wallet.secret() },
    );
    const t = await startApp(target, { env: accountsEnv({ CONTRACT_ID: CONTRACT }), overrides: { gateway: chain } });
    clock = t.clock;
    const m = await merchantWithKey(t.app, wallet.publicKey());
    const keyId = (await as(t.app, m.key).get(`/merchants/${m.merchant.id}/api-keys`)).body.keys[0].id;
    f = { t, chain, merchantId: m.merchant.id, key: m.key, keyId, wallet };
  });
  afterAll(() => f?.t.close());

  const send = (c: Case, url: string, body: unknown, idem: string, key?: string): Promise<Reply> =>
    as(f.t.app, key ?? (c.as === 'operator' ? ADMIN_KEY : f.key)).send('POST', url, body, { 'idempotency-key': idem });

  describe.each(CASES)('$name', (c) => {
    it('replays the first answer and runs nothing again', async () => {
      const r = await c.setup(f);
      const idem = crypto.randomUUID();
      const first = await send(c, r.url, r.body, idem);
      expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const after = await r.probe();
      const again = await send(c, r.url, r.body, idem);
      expect(again.status).toBe(first.status);
      expect(again.headers['idempotent-replayed']).toBe('true');
      // A credential shown once is replayed as null; everything else is the first answer.
      const secretless = {
        ...first.body,
        ...('api_key' in first.body ? { api_key: null } : {}),
        ...('secret' in first.body ? { secret: null } : {}),
      };
      expect(again.body).toEqual(secretless);
      expect(await r.probe()).toEqual(after);
    });

    it('the same key with other parameters is 422, and runs nothing', async () => {
      const r = await c.setup(f);
      const idem = crypto.randomUUID();
      await send(c, r.url, r.body, idem);
      const after = await r.probe();
      const otherUrl = (r as { otherUrl?: string }).otherUrl ?? r.url;
      const res = await send(c, otherUrl, r.other, idem);
      expect(res).toMatchObject({
        status: 422,
        body: { code: 'idempotency_key_reused', error: expect.stringContaining('same method, path and parameters') },
      });
      expect(await r.probe()).toEqual(after);
    });

    it('while the first request runs, the same key is 409', async () => {
      const r = await c.setup(f);
      const idem = crypto.randomUUID();
      await send(c, r.url, r.body, idem);
      // The stored answer taken away: exactly what the row looks like while the first request runs.
      await f.t.deps.db.query('UPDATE idempotency_keys SET status = NULL, body = NULL WHERE key = $1', [idem]);
      const after = await r.probe();
      const res = await send(c, r.url, r.body, idem);
      expect(res).toMatchObject({ status: 409, body: { code: 'idempotency_key_in_use' } });
      expect(await r.probe()).toEqual(after);
    });

    it('after 24 h the key is new again', async () => {
      const r = await c.setup(f);
      const idem = crypto.randomUUID();
      await send(c, r.url, r.body, idem);
      await f.t.deps.db.query(
        `UPDATE idempotency_keys SET created_at = created_at - interval '24 hours 1 second' WHERE key = $1`,
        [idem],
      );
      const again = await send(c, r.url, r.body, idem);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      // And the new answer is the one replayed from now on.
      const third = await send(c, r.url, r.body, idem);
      expect(third.headers['idempotent-replayed']).toBe('true');
      expect(third.status).toBe(again.status);
    });
  });

  it('stores no secret: not the body (merchant_secret), not api_key, not the webhook secret', async () => {
    const idem = crypto.randomUUID();
    const merchant = await as(f.t.app, ADMIN_KEY).send(
      'POST',
      '/merchants',
      { name: 'Secretive', wallet_address: newWallet() },
      { 'idempotency-key': idem },
    );
    const endpoint = await as(f.t.app, f.key).send(
      'POST',
      '/webhook-endpoints',
      { url: 'http://127.0.0.1:9/s', event_types: ['*'] },
      { 'idempotency-key': idem },
    );
    const plan = (await as(f.t.app, f.key).post('/plans', planPayload(f.merchantId))).body.plan;
    const sub = (
      await as(f.t.app, f.key).post('/subscriptions', { plan_id: plan.id, customer_wallet_address: newWallet() })
    ).body.subscription;
    await as(f.t.app, f.key).send(
      'POST',
      '/trigger-pull',
      { subscription_id: sub.id, merchant_secret: f.wallet.secret() },
      { 'idempotency-key': `${idem}-pull` },
    );
    const stored = (
      await f.t.deps.db.query<{ body: string }>('SELECT * FROM idempotency_keys WHERE key LIKE $1', [`${idem}%`])
    ).rows;
    expect(stored.map((r) => JSON.parse(r.body))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ api_key: null, merchant: merchant.body.merchant }),
        expect.objectContaining({ secret: null }),
      ]),
    );
    const rows = JSON.stringify(stored);
    for (const secret of [merchant.body.api_key, endpoint.body.secret, f.wallet.secret()])
      expect(rows).not.toContain(secret);
  });

  it('keys are scoped per API key; keyless requests (open mode) share one space', async () => {
    const idem = crypto.randomUUID();
    const other = await as(f.t.app, ADMIN_KEY).post(`/merchants/${f.merchantId}/api-keys`, {});
    const a = await as(f.t.app, f.key).send('POST', '/plans', planPayload(f.merchantId), { 'idempotency-key': idem });
    const b = await as(f.t.app, other.body.api_key).send('POST', '/plans', planPayload(f.merchantId), {
      'idempotency-key': idem,
    });
    expect(b.body.plan.id).not.toBe(a.body.plan.id);
    const anon1 = await as(f.t.app).send('POST', '/plans', planPayload(f.merchantId), { 'idempotency-key': idem });
    const anon2 = await as(f.t.app).send('POST', '/plans', planPayload(f.merchantId), { 'idempotency-key': idem });
    expect(anon1.body.plan.id).not.toBe(a.body.plan.id);
    expect(anon2).toMatchObject({ status: 201, body: anon1.body, headers: { 'idempotent-replayed': 'true' } });
  });

  it('a body refused with 400 stores nothing (it may be corrected and sent with the same key); a malformed key is 400', async () => {
    const bad = crypto.randomUUID();
    expect(
      (
        await as(f.t.app, f.key).send(
          'POST',
          '/plans',
          { ...planPayload(f.merchantId), name: ' ' },
          { 'idempotency-key': bad },
        )
      ).status,
    ).toBe(400);
    expect(
      (await as(f.t.app, f.key).send('POST', '/plans', planPayload(f.merchantId), { 'idempotency-key': bad })).status,
    ).toBe(201);
    expect(
      (
        await as(f.t.app, f.key).send('POST', '/plans', planPayload(f.merchantId), {
          'idempotency-key': 'x'.repeat(256),
        })
      ).body.error,
    ).toBe('Invalid input on Idempotency-Key: Idempotency-Key must be 1 to 255 printable ASCII characters');
  });

  it('a 500 replays byte for byte', async () => {
    const idem = crypto.randomUUID();
    const payload = planPayload(unknownId());
    const first = await as(f.t.app, ADMIN_KEY).send('POST', '/plans', payload, { 'idempotency-key': idem });
    const again = await as(f.t.app, ADMIN_KEY).send('POST', '/plans', payload, { 'idempotency-key': idem });
    expect(first.status).toBe(500);
    expect(again).toMatchObject({ status: 500, body: first.body, headers: { 'idempotent-replayed': 'true' } });
  });

  it('/trigger-pull raced with one key: 409 while the first runs, one transaction, the first answer replayed', async () => {
    const plan = (await as(f.t.app, f.key).post('/plans', planPayload(f.merchantId))).body.plan;
    const sub = (
      await as(f.t.app, f.key).post('/subscriptions', { plan_id: plan.id, customer_wallet_address: newWallet() })
    ).body.subscription;
    const idem = crypto.randomUUID();
    // Signed with the stored key: the request carries no secret at all.
    expect(
      (await as(f.t.app, f.key).put(`/merchants/${f.merchantId}/signing-key`, { secret: f.wallet.secret() })).status,
    ).toBe(200);
    let release!: () => void;
    f.chain.gate = new Promise((r) => (release = r));
    const sentBefore = f.chain.sent;
    const body = { subscription_id: sub.id };
    const first = as(f.t.app, f.key).send('POST', '/trigger-pull', body, { 'idempotency-key': idem });
    // The first is held in preparePull; the key is taken by then.
    for (
      let i = 0;
      i < 100 && (await f.t.deps.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [idem])).rows.length === 0;
      i++
    )
      await new Promise((r) => setTimeout(r, 20));
    const second = await as(f.t.app, f.key).send('POST', '/trigger-pull', body, { 'idempotency-key': idem });
    expect(second).toMatchObject({ status: 409, body: { code: 'idempotency_key_in_use' } });
    release();
    f.chain.gate = undefined;
    const done = await first;
    const third = await as(f.t.app, f.key).send('POST', '/trigger-pull', body, { 'idempotency-key': idem });
    expect(third).toMatchObject({ status: done.status, body: done.body, headers: { 'idempotent-replayed': 'true' } });
    expect(done.status).toBe(200);
    expect(f.chain.sent - sentBefore).toBe(1);
  });
});
