// Merchant API keys end to end, on both databases: the first key with POST /merchants, more keys,
// the list, revocation, the operator key, keys stored only as hashes, last_used_at coalesced, and
// the two modes (open keeps the spec's flows; keys needs a key everywhere but the public routes).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateApiKeyResponse, ListApiKeysResponse, RevokeApiKeyResponse } from '../../src/schemas/api-keys.ts';
import { CreateMerchantResponse, MerchantListResponse } from '../../src/schemas/merchants.ts';
import { TARGETS, startApp, type TestApp } from '../support/app.ts';
import { createMerchant, createPlan, newWallet, planPayload, unknownId } from '../support/factories.ts';
import { ADMIN_KEY, accountsEnv, as, merchantWithKey } from '../support/keys.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(TARGETS)('API keys on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: accountsEnv() });
  });
  afterAll(() => t.close());

  it('POST /merchants answers the merchant and its first key, in both the open flow and with the operator key', async () => {
    for (const key of [undefined, ADMIN_KEY]) {
      const res = await as(t.app, key).post('/merchants', { name: 'Acme', wallet_address: newWallet() });
      expect(res.status).toBe(201);
      const body = CreateMerchantResponse.parse(res.body);
      expect(body.api_key).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
      // The key works at once and sees its merchant.
      expect((await as(t.app, body.api_key).get(`/merchants/${body.merchant.id}`)).status).toBe(200);
    }
  });

  it('stores keys only as their SHA-256: no column of the table holds the key', async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const more = (await as(t.app, key).post(`/merchants/${merchant.id}/api-keys`, { label: 'cron' })).body
      .api_key as string;
    const { rows } = await t.deps.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE merchant_id = $1', [
      merchant.id,
    ]);
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    for (const k of [key, more]) {
      expect(dump).not.toContain(k);
      expect(dump).not.toContain(k.slice(12)); // not even the part after the shown prefix
      expect(rows.map((r) => r.key_hash)).toContain(sha256(k));
    }
  });

  it('a merchant creates, lists and revokes its own keys; the list never holds a key', async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const me = as(t.app, key);
    const created = await me.post(`/merchants/${merchant.id}/api-keys`, { label: 'billing cron' });
    expect(created.status).toBe(201);
    const body = CreateApiKeyResponse.parse(created.body);
    expect(body.key).toMatchObject({ prefix: body.api_key.slice(0, 11), label: 'billing cron', last_used_at: null });

    const list = ListApiKeysResponse.parse((await me.get(`/merchants/${merchant.id}/api-keys`)).body);
    expect(list.keys.map((k) => k.label)).toEqual([null, 'billing cron']);
    expect(JSON.stringify(list)).not.toContain(body.api_key);
    expect(JSON.stringify(list)).not.toContain(key);

    const revoked = await me.del(`/merchants/${merchant.id}/api-keys/${body.key.id}`);
    expect(revoked.status).toBe(200);
    expect(RevokeApiKeyResponse.parse(revoked.body)).toMatchObject({
      message: 'API key revoked',
      key: { id: body.key.id, revoked_at: expect.any(String) },
    });
    // Refused at once (this replica's cache forgets it), gone from the list, and 404 the second time.
    expect((await as(t.app, body.api_key).get(`/merchants/${merchant.id}`)).body).toEqual({
      error: 'The API key is unknown or revoked',
      code: 'api_key_invalid',
    });
    expect((await me.get(`/merchants/${merchant.id}/api-keys`)).body.keys).toHaveLength(1);
    expect(await me.del(`/merchants/${merchant.id}/api-keys/${body.key.id}`)).toMatchObject({
      status: 404,
      body: { error: 'API key not found' },
    });
  });

  it("another merchant's key id under one's own merchant is 404 API key not found", async () => {
    const a = await merchantWithKey(t.app);
    const b = await merchantWithKey(t.app);
    const aKeyId = (await as(t.app, a.key).get(`/merchants/${a.merchant.id}/api-keys`)).body.keys[0].id;
    expect(await as(t.app, b.key).del(`/merchants/${b.merchant.id}/api-keys/${aKeyId}`)).toMatchObject({
      status: 404,
      body: { error: 'API key not found' },
    });
    expect(await as(t.app, b.key).del(`/merchants/${b.merchant.id}/api-keys/${unknownId()}`)).toMatchObject({
      status: 404,
    });
    expect((await as(t.app, a.key).get(`/merchants/${a.merchant.id}`)).status).toBe(200);
  });

  it('a merchant may revoke the key it calls with', async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const id = (await as(t.app, key).get(`/merchants/${merchant.id}/api-keys`)).body.keys[0].id;
    expect((await as(t.app, key).del(`/merchants/${merchant.id}/api-keys/${id}`)).status).toBe(200);
    expect((await as(t.app, key).get(`/merchants/${merchant.id}`)).status).toBe(401);
  });

  it("a deleted merchant's keys stop working", async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    expect((await as(t.app, key).get(`/merchants/${merchant.id}`)).status).toBe(200); // now cached
    expect((await as(t.app, key).del(`/merchants/${merchant.id}`)).status).toBe(200);
    expect((await as(t.app, key).get(`/plans/${unknownId()}`)).body.code).toBe('api_key_invalid');
    expect(await as(t.app, ADMIN_KEY).get(`/merchants/${merchant.id}/api-keys`)).toMatchObject({
      status: 404,
      body: { error: 'Merchant not found' },
    });
  });

  it('last_used_at is coalesced: no write per request, one per flush, never backwards', async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const lastUsed = async () =>
      (
        await t.deps.db.query<{ at: Date | null }>('SELECT last_used_at AS at FROM api_keys WHERE merchant_id = $1', [
          merchant.id,
        ])
      ).rows[0].at;
    t.clock.set('2030-05-05T10:00:00.000Z');
    for (let i = 0; i < 5; i++) expect((await as(t.app, key).get(`/merchants/${merchant.id}`)).status).toBe(200);
    expect(await lastUsed()).toBeNull();
    await t.deps.keyUsage.flush();
    expect((await lastUsed())?.toISOString()).toBe('2030-05-05T10:00:00.000Z');
    const listed = (await as(t.app, ADMIN_KEY).get(`/merchants/${merchant.id}/api-keys`)).body.keys[0];
    expect(listed.last_used_at).toBe('2030-05-05T10:00:00.000Z');
    // A late flush from another replica with an older time does not move it back.
    await t.deps.repos.apiKeys.recordUse([{ id: listed.id, at: new Date('2030-05-05T09:00:00.000Z') }]);
    expect((await lastUsed())?.toISOString()).toBe('2030-05-05T10:00:00.000Z');
  });

  it('the operator key reads every merchant and lists them all; a merchant key may not (403)', async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    expect((await as(t.app, ADMIN_KEY).get(`/merchants/${merchant.id}`)).status).toBe(200);
    const page = MerchantListResponse.parse((await as(t.app, ADMIN_KEY).get('/merchants?limit=500')).body);
    expect(page.merchants.map((m) => m.id)).toContain(merchant.id);
    expect(await as(t.app, key).get('/merchants')).toMatchObject({
      status: 403,
      body: { error: 'Only the operator key may do this', code: 'operator_only' },
    });
    expect((await as(t.app, key).post('/merchants', { name: 'X', wallet_address: newWallet() })).status).toBe(403);
  });

  it('a merchant key acts for its own merchant only: plans, subscriptions, listings', async () => {
    const a = await merchantWithKey(t.app);
    const b = await merchantWithKey(t.app);
    const mine = await as(t.app, a.key).post('/plans', planPayload(a.merchant.id));
    expect(mine.status).toBe(201);
    expect(await as(t.app, a.key).post('/plans', planPayload(b.merchant.id))).toMatchObject({
      status: 404,
      body: { error: 'Merchant not found' },
    });
    const theirs = (await as(t.app, b.key).post('/plans', planPayload(b.merchant.id))).body.plan;
    expect(
      await as(t.app, a.key).post('/subscriptions', { plan_id: theirs.id, customer_wallet_address: newWallet() }),
    ).toMatchObject({
      status: 404,
      body: { error: 'Plan not found' },
    });
    // Nothing was written for merchant B by merchant A's attempts.
    expect((await as(t.app, b.key).get(`/plans/${theirs.id}/subscriptions`)).body.subscriptions).toEqual([]);
    // Without a key the public plan read still shows the plan (a checkout needs it).
    expect((await as(t.app).get(`/plans/${theirs.id}`)).status).toBe(200);
  });

  it('label rules: optional, not blank, at most 100 characters', async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const me = as(t.app, key);
    expect((await me.post(`/merchants/${merchant.id}/api-keys`)).status).toBe(201);
    expect((await me.post(`/merchants/${merchant.id}/api-keys`, { label: ' ' })).body).toEqual({
      error: 'Invalid input on label: label cannot be empty',
    });
    expect((await me.post(`/merchants/${merchant.id}/api-keys`, { label: 'x'.repeat(101) })).body).toEqual({
      error: 'Invalid input on label: label must be at most 100 characters',
    });
  });
});

describe('AUTH_MODE=keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('pglite', { env: accountsEnv({ AUTH_MODE: 'keys' }) });
  });
  afterAll(() => t.close());

  it('probes, docs, the OpenAPI document and the public plan read need no key', async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const plan = (await as(t.app, key).post('/plans', planPayload(merchant.id))).body.plan;
    for (const url of ['/health', '/ready', '/openapi.json', '/docs/', `/plans/${plan.id}`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await as(t.app).get('/metrics')).status).toBe(401);
    expect((await as(t.app, key).get('/metrics')).status).toBe(403);
    expect((await as(t.app, ADMIN_KEY).send('GET', '/metrics')).status).toBe(200);
  });

  it('only the operator key creates merchants; a merchant key runs the whole flow for itself', async () => {
    expect((await as(t.app).post('/merchants', { name: 'A', wallet_address: newWallet() })).body.code).toBe(
      'api_key_required',
    );
    const { merchant, key } = await merchantWithKey(t.app);
    const me = as(t.app, key);
    const plan = (await me.post('/plans', planPayload(merchant.id))).body.plan;
    const sub = await me.post('/subscriptions', { plan_id: plan.id, customer_wallet_address: newWallet() });
    expect(sub.status).toBe(201);
    expect((await me.get(`/subscriptions/${sub.body.subscription.id}`)).status).toBe(200);
    expect((await me.get(`/merchants/${merchant.id}/subscriptions`)).body.subscriptions).toHaveLength(1);
    expect((await as(t.app).get(`/subscriptions/${sub.body.subscription.id}`)).status).toBe(401);
  });
});

describe('AUTH_MODE=open', () => {
  it('keeps the spec flows without any key, and a sent key still scopes the request', async () => {
    const t = await startApp('pglite', { env: accountsEnv() });
    try {
      const m = await createMerchant(t.app);
      const plan = await createPlan(t.app, m.id);
      expect((await as(t.app).get(`/plans/${plan.id}`)).status).toBe(200);
      const other = await merchantWithKey(t.app);
      expect(await as(t.app, other.key).get(`/plans/${plan.id}`)).toMatchObject({
        status: 404,
        body: { error: 'Plan not found' },
      });
      // Credential routes need a key even here.
      expect((await as(t.app).get(`/merchants/${m.id}/api-keys`)).body.code).toBe('api_key_required');
    } finally {
      await t.close();
    }
  });

  it('in production, /ready stays 200 and carries a warning', async () => {
    const t = await startApp('pglite', { env: { NODE_ENV: 'production' } });
    try {
      const res = await as(t.app).get('/ready');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'ready',
        warning: expect.stringContaining('AUTH_MODE=open in production'),
      });
      const keys = await startApp('pglite', { env: { NODE_ENV: 'production', AUTH_MODE: 'keys' } });
      expect((await as(keys.app).get('/ready')).body.warning).toBeUndefined();
      await keys.close();
    } finally {
      await t.close();
    }
  });
});
