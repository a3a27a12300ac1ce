// The 401 / 403 / 404 matrix, generated from the app's own route table: every route the app
// registers must have an entry below (a new route fails "covers every route" until it does), and
// every entry is tried with no key, an unknown key, a revoked key, a malformed header, and
// another merchant's key on merchant A's objects; in both AUTH_MODEs, on both databases.
import type { RouteOptions } from 'fastify';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteAccess } from '../../src/http/auth.ts';
import { TARGETS, startApp, type TestApp } from '../support/app.ts';
import { newWallet, planPayload, unknownId } from '../support/factories.ts';
import { ADMIN_KEY, accountsEnv, as, merchantWithKey, unknownKey } from '../support/keys.ts';

interface Ids {
  merchant: string;
  plan: string;
  subscription: string;
  keyId: string;
  secret: string;
  event: string;
  endpoint: string;
}

type Entry = {
  /** product.md: who may call it. */
  access: RouteAccess;
  request: (ids: Ids) => { url: string; payload?: unknown };
  /** What merchant B's key gets on merchant A's object: its not-found message, or 403; null: no merchant's object. */
  foreign: string | 403 | null;
};

const TABLE: Record<string, Entry> = {
  'POST /merchants': {
    access: 'operator',
    request: () => ({ url: '/merchants', payload: { name: 'M', wallet_address: newWallet() } }),
    foreign: 403,
  },
  'GET /merchants': { access: 'operator', request: () => ({ url: '/merchants' }), foreign: 403 },
  'GET /merchants/:id': {
    access: 'merchant',
    request: (i) => ({ url: `/merchants/${i.merchant}` }),
    foreign: 'Merchant not found',
  },
  'DELETE /merchants/:id': {
    access: 'merchant',
    request: (i) => ({ url: `/merchants/${i.merchant}` }),
    foreign: 'Merchant not found',
  },
  'POST /merchants/:id/api-keys': {
    access: 'credential',
    request: (i) => ({ url: `/merchants/${i.merchant}/api-keys`, payload: {} }),
    foreign: 'Merchant not found',
  },
  'GET /merchants/:id/api-keys': {
    access: 'credential',
    request: (i) => ({ url: `/merchants/${i.merchant}/api-keys` }),
    foreign: 'Merchant not found',
  },
  'DELETE /merchants/:id/api-keys/:key_id': {
    access: 'credential',
    request: (i) => ({ url: `/merchants/${i.merchant}/api-keys/${i.keyId}` }),
    foreign: 'Merchant not found',
  },
  'PUT /merchants/:id/signing-key': {
    access: 'credential',
    request: (i) => ({ url: `/merchants/${i.merchant}/signing-key`, payload: { secret: i.secret } }),
    foreign: 'Merchant not found',
  },
  'DELETE /merchants/:id/signing-key': {
    access: 'credential',
    request: (i) => ({ url: `/merchants/${i.merchant}/signing-key` }),
    foreign: 'Merchant not found',
  },
  'GET /merchants/:id/plans': {
    access: 'merchant',
    request: (i) => ({ url: `/merchants/${i.merchant}/plans` }),
    foreign: 'Merchant not found',
  },
  'GET /merchants/:id/subscriptions': {
    access: 'merchant',
    request: (i) => ({ url: `/merchants/${i.merchant}/subscriptions` }),
    foreign: 'Merchant not found',
  },
  'POST /plans': {
    access: 'merchant',
    request: (i) => ({ url: '/plans', payload: planPayload(i.merchant) }),
    foreign: 'Merchant not found',
  },
  'GET /plans/:id': { access: 'public', request: (i) => ({ url: `/plans/${i.plan}` }), foreign: 'Plan not found' },
  'POST /plans/:id/archive': {
    access: 'merchant',
    request: (i) => ({ url: `/plans/${i.plan}/archive`, payload: {} }),
    foreign: 'Plan not found',
  },
  'GET /plans/:id/subscriptions': {
    access: 'merchant',
    request: (i) => ({ url: `/plans/${i.plan}/subscriptions` }),
    foreign: 'Plan not found',
  },
  'POST /subscriptions': {
    access: 'merchant',
    request: (i) => ({ url: '/subscriptions', payload: { plan_id: i.plan, customer_wallet_address: newWallet() } }),
    foreign: 'Plan not found',
  },
  'GET /subscriptions/:id': {
    access: 'merchant',
    request: (i) => ({ url: `/subscriptions/${i.subscription}` }),
    foreign: 'Subscription not found',
  },
  'POST /subscriptions/:id/cancel': {
    access: 'merchant',
    request: (i) => ({ url: `/subscriptions/${i.subscription}/cancel`, payload: {} }),
    foreign: 'Subscription not found',
  },
  'POST /subscriptions/:id/pause': {
    access: 'merchant',
    request: (i) => ({ url: `/subscriptions/${i.subscription}/pause`, payload: {} }),
    foreign: 'Subscription not found',
  },
  'POST /subscriptions/:id/resume': {
    access: 'merchant',
    request: (i) => ({ url: `/subscriptions/${i.subscription}/resume`, payload: {} }),
    foreign: 'Subscription not found',
  },
  'GET /subscriptions/:id/pulls': {
    access: 'merchant',
    request: (i) => ({ url: `/subscriptions/${i.subscription}/pulls` }),
    foreign: 'Subscription not found',
  },
  'GET /merchants/:id/pulls': {
    access: 'merchant',
    request: (i) => ({ url: `/merchants/${i.merchant}/pulls` }),
    foreign: 'Merchant not found',
  },
  'GET /merchants/:id/pulls/daily-totals': {
    access: 'merchant',
    request: (i) => ({ url: `/merchants/${i.merchant}/pulls/daily-totals` }),
    foreign: 'Merchant not found',
  },
  // product.md: the hosted checkout needs no key; a key that is sent scopes it like any other.
  'POST /checkout/:plan_id/subscriptions': {
    access: 'public',
    request: (i) => ({ url: `/checkout/${i.plan}/subscriptions`, payload: { customer_wallet_address: newWallet() } }),
    foreign: 'Plan not found',
  },
  // /manage: a wallet signature, no key; a sent key is checked (it scopes nothing here: the wallet does).
  'POST /subscriber/subscriptions': {
    access: 'public',
    request: () => ({
      url: '/subscriber/subscriptions',
      payload: { wallet: newWallet(), signed_at: 'x', signature: 'x' },
    }),
    foreign: null,
  },
  // Who the key is: nobody else's object to ask about.
  'GET /api-keys/current': { access: 'credential', request: () => ({ url: '/api-keys/current' }), foreign: null },
  'POST /trigger-pull': {
    access: 'merchant',
    request: (i) => ({ url: '/trigger-pull', payload: { subscription_id: i.subscription, merchant_secret: i.secret } }),
    foreign: 'Subscription not found',
  },
  'POST /subscriptions/:id/pulls/prepare': {
    access: 'merchant',
    request: (i) => ({ url: `/subscriptions/${i.subscription}/pulls/prepare`, payload: {} }),
    foreign: 'Subscription not found',
  },
  'POST /pulls/:id/submit': {
    access: 'merchant',
    request: (i) => ({
      url: `/pulls/${i.subscription}/submit`,
      payload: { signature: Buffer.alloc(64).toString('base64') },
    }),
    foreign: 'Pull not found',
  },
  'GET /events': {
    access: 'credential',
    request: (i) => ({ url: `/events?merchant_id=${i.merchant}` }),
    foreign: 'Merchant not found',
  },
  'GET /events/:id': {
    access: 'credential',
    request: (i) => ({ url: `/events/${i.event}` }),
    foreign: 'Event not found',
  },
  'GET /events/:id/deliveries': {
    access: 'credential',
    request: (i) => ({ url: `/events/${i.event}/deliveries` }),
    foreign: 'Event not found',
  },
  'POST /events/:id/redeliver': {
    access: 'credential',
    request: (i) => ({ url: `/events/${i.event}/redeliver`, payload: {} }),
    foreign: 'Event not found',
  },
  'POST /webhook-endpoints': {
    access: 'credential',
    request: (i) => ({
      url: '/webhook-endpoints',
      payload: { url: 'http://127.0.0.1:9/hook', event_types: ['*'], merchant_id: i.merchant },
    }),
    foreign: 'Merchant not found',
  },
  'GET /webhook-endpoints': {
    access: 'credential',
    request: (i) => ({ url: `/webhook-endpoints?merchant_id=${i.merchant}` }),
    foreign: 'Merchant not found',
  },
  'GET /webhook-endpoints/:id': {
    access: 'credential',
    request: (i) => ({ url: `/webhook-endpoints/${i.endpoint}` }),
    foreign: 'Webhook endpoint not found',
  },
  'DELETE /webhook-endpoints/:id': {
    access: 'credential',
    request: (i) => ({ url: `/webhook-endpoints/${i.endpoint}` }),
    foreign: 'Webhook endpoint not found',
  },
  'POST /webhook-endpoints/:id/rotate-secret': {
    access: 'credential',
    request: (i) => ({ url: `/webhook-endpoints/${i.endpoint}/rotate-secret`, payload: {} }),
    foreign: 'Webhook endpoint not found',
  },
  // Only in keys mode, where /metrics is the operator's by default (METRICS_AUTH).
  'GET /metrics': { access: 'operator-key', request: () => ({ url: '/metrics' }), foreign: 403 },
};

/** product.md: which routes need a key without one being sent. */
const needsKey = (access: RouteAccess, mode: string) =>
  access === 'credential' || access === 'operator-key' || (mode === 'keys' && access !== 'public' && access !== 'none');

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(TARGETS)('auth matrix on %s', (target) => {
  describe.each(['open', 'keys'])('AUTH_MODE=%s', (mode) => {
    const routes: { key: string; access: RouteAccess }[] = [];
    let t: TestApp;
    let a: Ids;
    let keyB: string;
    let revoked: string;

    beforeAll(async () => {
      const collect = (r: RouteOptions) => {
        for (const m of [r.method].flat())
          if (m !== 'HEAD') routes.push({ key: `${m} ${r.url}`, access: r.config?.access ?? 'none' });
      };
      t = await startApp(target, { env: accountsEnv({ AUTH_MODE: mode }), onRoute: collect });
      const admin = as(t.app, ADMIN_KEY);
      const wallet = Keypair.random();
      const A = await merchantWithKey(t.app, wallet.publicKey());
      keyB = (await merchantWithKey(t.app)).key;
      const plan = (await admin.post('/plans', planPayload(A.merchant.id))).body.plan;
      const sub = (await admin.post('/subscriptions', { plan_id: plan.id, customer_wallet_address: newWallet() })).body
        .subscription;
      const second = await admin.post(`/merchants/${A.merchant.id}/api-keys`, { label: 'second' });
      const third = await admin.post(`/merchants/${A.merchant.id}/api-keys`, { label: 'to revoke' });
      expect((await admin.del(`/merchants/${A.merchant.id}/api-keys/${third.body.key.id}`)).status).toBe(200);
      revoked = third.body.api_key;
      const event = (await admin.get(`/events?merchant_id=${A.merchant.id}&limit=1`)).body.events[0].id;
      const endpoint = (
        await admin.post('/webhook-endpoints', {
          url: 'http://127.0.0.1:9/hook',
          event_types: ['*'],
          merchant_id: A.merchant.id,
        })
      ).body.webhook_endpoint.id;
      a = {
        merchant: A.merchant.id,
        plan: plan.id,
        subscription: sub.id,
        keyId: second.body.key.id,
        secret: wallet.secret(),
        event,
        endpoint,
      };
    });
    afterAll(() => t.close());

    const guarded = () => routes.filter((r) => r.access !== 'none');
    const send = (route: string, key: string | undefined, ids: Ids, headers: Record<string, string> = {}) => {
      const method = route.split(' ')[0] as Method;
      const { url, payload } = TABLE[route].request(ids);
      return as(t.app, key).send(method, url, payload, headers);
    };
    const unknownIds = (): Ids => ({
      merchant: unknownId(),
      plan: unknownId(),
      subscription: unknownId(),
      keyId: unknownId(),
      secret: Keypair.random().secret(),
      event: unknownId(),
      endpoint: unknownId(),
    });

    it('covers every route the app registers, with the access product.md gives it', () => {
      expect(guarded().length).toBeGreaterThanOrEqual(18);
      for (const r of guarded()) {
        expect(TABLE[r.key], `${r.key} has no entry in the auth matrix`).toBeDefined();
        expect(r.access, r.key).toBe(TABLE[r.key].access);
      }
    });

    // One `it` per route and case, generated once the routes are known: vitest collects tests
    // before beforeAll runs, so the cases are listed from the table and checked against the app.
    const cases = Object.keys(TABLE).filter((k) => k !== 'GET /metrics' || mode === 'keys');

    it.each(cases)('%s: no key', async (route) => {
      const { access } = TABLE[route];
      if (needsKey(access, mode)) {
        const res = await send(route, undefined, a);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: expect.any(String), code: 'api_key_required' });
        expect(res.headers['www-authenticate']).toBe('Bearer');
      } else {
        // Unknown ids: the request gets past authentication without touching merchant A's data.
        const res = await send(route, undefined, unknownIds());
        expect([401, 403], JSON.stringify(res.body)).not.toContain(res.status);
      }
    });

    it.each(cases)('%s: unknown key', async (route) => {
      const res = await send(route, unknownKey(), a);
      expect(res).toMatchObject({
        status: 401,
        body: { error: 'The API key is unknown or revoked', code: 'api_key_invalid' },
      });
    });

    it.each(cases)('%s: revoked key', async (route) => {
      const res = await send(route, revoked, a);
      expect(res).toMatchObject({ status: 401, body: { code: 'api_key_invalid' } });
    });

    it.each(cases)('%s: not a Bearer key', async (route) => {
      const res = await send(route, undefined, a, { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' });
      expect(res).toMatchObject({ status: 401, body: { code: 'api_key_invalid' } });
    });

    it.each(cases)("%s: merchant B's key on merchant A's object", async (route) => {
      const { foreign } = TABLE[route];
      if (foreign === null) return;
      const res = await send(route, keyB, a);
      if (foreign === 403) expect(res).toMatchObject({ status: 403, body: { code: 'operator_only' } });
      else expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { error: foreign } });
    });

    it("merchant A's objects are untouched by all of the above", async () => {
      const admin = as(t.app, ADMIN_KEY);
      expect((await admin.get(`/merchants/${a.merchant}`)).status).toBe(200);
      expect((await admin.get(`/subscriptions/${a.subscription}`)).status).toBe(200);
      expect((await admin.get(`/merchants/${a.merchant}/api-keys`)).body.keys).toHaveLength(2);
      expect((await admin.get(`/webhook-endpoints/${a.endpoint}`)).status).toBe(200);
    });
  });
});
