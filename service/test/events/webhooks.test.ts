// Webhook delivery against a real receiver on loopback that verifies every signature with the
// `standardwebhooks` library: signed events arrive with webhook-id = event id and the body of
// GET /events/{id}; a receiver that is down then recovers gets everything, none twice in the log as
// delivered; a slow receiver is cut off at WEBHOOK_TIMEOUT_MS and retried; a redirect is a failure;
// rotation signs with both secrets during the overlap; an endpoint that keeps failing is disabled
// with its reason; redelivery by hand. Both databases.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../src/jobs/webhook-worker.ts';
import { TARGETS, isolatedEnvFor, startApp, type TestApp } from '../support/app.ts';
import { planPayload } from '../support/factories.ts';
import { accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { eventually, startReceiver, type Receiver } from '../support/receiver.ts';
import { fastWebhooks, listen, startWorker } from '../support/webhooks.ts';

describe.each(TARGETS)('webhooks on %s', (target) => {
  let t: TestApp;
  let worker: WebhookWorker;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startApp(null, {
      env: { ...(await isolatedEnvFor(target)), ...accountsEnv(fastWebhooks({ WEBHOOK_TIMEOUT_MS: '1500' })) },
    });
    worker = startWorker(t);
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  async function setup(types?: string[]) {
    const m = await merchantWithKey(t.app);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const endpoint = await listen(t, m.key, receiver, types);
    const api = as(t.app, m.key);
    const plan = async () => {
      const res = await api.post('/plans', planPayload(m.merchant.id));
      expect(res.status).toBe(201);
      return res.body.plan as { id: string };
    };
    const eventOf = async (objectId: string) =>
      (await api.get(`/events?object_id=${objectId}`)).body.events[0] as Record<string, any>;
    const deliveries = async (eventId: string) =>
      (await api.get(`/events/${eventId}/deliveries`)).body.deliveries as Record<string, any>[];
    return { ...m, api, receiver, endpoint, plan, eventOf, deliveries };
  }

  it('delivers each event signed per Standard Webhooks, with webhook-id = event id and the body GET /events/{id} shows', async () => {
    const s = await setup();
    const plan = await s.plan();
    const event = await s.eventOf(plan.id);
    await s.receiver.waitFor((r) => r.some((x) => x.id === event.id));
    const got = s.receiver.received.find((x) => x.id === event.id)!;
    expect(got.verifiedBy).toEqual([0]);
    expect(got.body).toEqual(event);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Number(got.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    const [delivery] = await eventually(async () => {
      const d = await s.deliveries(event.id);
      return d[0]?.status === 'delivered' && d;
    });
    expect(delivery).toMatchObject({
      endpoint_id: s.endpoint.id,
      status: 'delivered',
      attempts: 1,
      log: [{ response_status: 200, delivered: true, error: null }],
    });
    // The merchant's first key came before the endpoint: it is not sent (registered later, never receives earlier events).
    expect(s.receiver.received.map((r) => r.type)).not.toContain('api_key.created');
  });

  it('sends only the types an endpoint listens to', async () => {
    const s = await setup(['subscription.created']);
    const plan = await s.plan();
    const sub = await s.api.post('/subscriptions', {
      plan_id: plan.id,
      customer_wallet_address: (await import('../support/factories.ts')).newWallet(),
    });
    await s.receiver.waitFor((r) => r.length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.receiver.received.map((r) => r.type)).toEqual(['subscription.created']);
    expect(s.receiver.received[0].body.data.object.id).toBe(sub.body.subscription.id);
    expect(await s.deliveries((await s.eventOf(plan.id)).id)).toEqual([]);
  });

  it('a receiver that is down, then up: every event arrives, and the log shows each delivered once', async () => {
    const s = await setup();
    await s.receiver.stop();
    const plans = [await s.plan(), await s.plan(), await s.plan()];
    const ids = await Promise.all(plans.map(async (p) => (await s.eventOf(p.id)).id));
    // Refused connections are failed attempts, retried.
    await eventually(async () => (await s.deliveries(ids[2]))[0]?.log.length >= 2, 20_000, 'two failed attempts');
    const failed = (await s.deliveries(ids[2]))[0];
    expect(failed).toMatchObject({ status: 'pending', last_error: expect.stringContaining('ECONNREFUSED') });
    await s.receiver.start();
    await s.receiver.waitFor((r) => ids.every((id) => r.some((x) => x.id === id)), 20_000);
    for (const id of ids) {
      const [d] = await eventually(async () => {
        const list = await s.deliveries(id);
        return list[0]?.status === 'delivered' && list;
      });
      expect(d.log.filter((l: { delivered: boolean }) => l.delivered)).toHaveLength(1);
      expect(d.log.at(-1)).toMatchObject({ delivered: true, response_status: 200 });
      expect(d.log.slice(0, -1).every((l: { delivered: boolean }) => !l.delivered)).toBe(true);
    }
    expect(s.receiver.verifiedIds().sort()).toEqual([...ids].sort());
  });

  it('a slow receiver is cut off at WEBHOOK_TIMEOUT_MS, and the delivery is retried', async () => {
    const s = await setup();
    s.receiver.delayMs = 4_000;
    const plan = await s.plan();
    const id = (await s.eventOf(plan.id)).id;
    await eventually(async () => (await s.deliveries(id))[0]?.log.length >= 1, 20_000, 'a timed-out attempt');
    const first = (await s.deliveries(id))[0].log[0];
    expect(first).toMatchObject({ delivered: false, response_status: null, error: 'timed out after 1500 ms' });
    expect(first.duration_ms).toBeGreaterThanOrEqual(1_400);
    s.receiver.delayMs = 0;
    await eventually(
      async () => (await s.deliveries(id))[0]?.status === 'delivered',
      20_000,
      'delivered after the timeout',
    );
  });

  it('answers other than 2xx are failures; a redirect is not followed', async () => {
    const s = await setup();
    s.receiver.status = 302;
    const plan = await s.plan();
    const id = (await s.eventOf(plan.id)).id;
    await eventually(async () => (await s.deliveries(id))[0]?.log.length >= 1, 20_000, 'an attempt');
    expect((await s.deliveries(id))[0]).toMatchObject({
      status: 'pending',
      last_error: 'HTTP 302',
      log: [{ response_status: 302, delivered: false }],
    });
    s.receiver.status = 204;
    await eventually(async () => (await s.deliveries(id))[0]?.status === 'delivered', 20_000, 'delivered on 204');
  });

  it('rotation: both secrets sign during the overlap, only the new one after it', async () => {
    const s = await setup();
    const rotated = await s.api.post(`/webhook-endpoints/${s.endpoint.id}/rotate-secret`, { overlap_seconds: 2 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(s.endpoint.secret);
    expect(rotated.body.webhook_endpoint.previous_secret_expires_at).toEqual(expect.any(String));
    s.receiver.secrets.push(rotated.body.secret);
    const during = (await s.eventOf((await s.plan()).id)).id;
    await s.receiver.waitFor((r) => r.some((x) => x.id === during));
    const got = s.receiver.received.find((x) => x.id === during)!;
    expect(got.verifiedBy).toEqual([0, 1]);
    expect(got.headers['webhook-signature'].split(' ')).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 2_200));
    const after = (await s.eventOf((await s.plan()).id)).id;
    await s.receiver.waitFor((r) => r.some((x) => x.id === after));
    expect(s.receiver.received.find((x) => x.id === after)!.verifiedBy).toEqual([1]);
    expect(
      (await s.api.get(`/webhook-endpoints/${s.endpoint.id}`)).body.webhook_endpoint.previous_secret_expires_at,
    ).toBeNull();
  });

  it('redelivery by hand sends the same webhook-id again', async () => {
    const s = await setup();
    const id = (await s.eventOf((await s.plan()).id)).id;
    await s.receiver.waitFor((r) => r.some((x) => x.id === id));
    await eventually(async () => (await s.deliveries(id))[0]?.status === 'delivered');
    const res = await s.api.post(`/events/${id}/redeliver`, {});
    expect(res).toMatchObject({ status: 202, body: { message: 'Event scheduled for redelivery', deliveries: 1 } });
    await s.receiver.waitFor((r) => r.filter((x) => x.id === id).length === 2);
    await eventually(async () => (await s.deliveries(id))[0]?.status === 'delivered');
    expect((await s.deliveries(id))[0].log.filter((l: { delivered: boolean }) => l.delivered)).toHaveLength(2);
  });

  it('endpoints: the secret is shown once and stored sealed; list, read, delete', async () => {
    const s = await setup();
    const read = await s.api.get(`/webhook-endpoints/${s.endpoint.id}`);
    expect(read.body.webhook_endpoint).toEqual({
      id: s.endpoint.id,
      url: s.receiver.url,
      event_types: ['*'],
      created_at: expect.any(String),
      disabled_at: null,
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    const { rows } = await t.deps.db.query<Record<string, unknown>>('SELECT * FROM webhook_endpoints WHERE id = $1', [
      s.endpoint.id,
    ]);
    expect(JSON.stringify(rows)).not.toContain(s.endpoint.secret.slice('whsec_'.length, 20));
    expect((await s.api.get('/webhook-endpoints')).body.webhook_endpoints.map((e: { id: string }) => e.id)).toEqual([
      s.endpoint.id,
    ]);
    expect((await s.api.del(`/webhook-endpoints/${s.endpoint.id}`)).body).toMatchObject({
      message: 'Webhook endpoint deleted',
    });
    expect((await s.api.get(`/webhook-endpoints/${s.endpoint.id}`)).status).toBe(404);
    await s.plan();
    await new Promise((r) => setTimeout(r, 300));
    expect(s.receiver.received).toEqual([]);
    expect((await s.api.post('/webhook-endpoints', { url: 'ftp://x.example', event_types: ['*'] })).body.error).toBe(
      'Invalid input on url: url must be an http:// or https:// URL',
    );
    expect((await s.api.post('/webhook-endpoints', { url: s.receiver.url, event_types: [] })).status).toBe(400);
    expect(
      (await s.api.post('/webhook-endpoints', { url: s.receiver.url, event_types: ['plan.deleted'] })).status,
    ).toBe(400);
  });

  afterEach(async () => {
    for (const r of receivers) {
      r.status = 200;
      r.delayMs = 0;
    }
  });
});

describe.each(TARGETS)('webhook endpoints that keep failing, on %s', (target) => {
  let t: TestApp;
  let worker: WebhookWorker;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startApp(null, {
      env: { ...(await isolatedEnvFor(target)), ...accountsEnv(fastWebhooks({ WEBHOOK_DISABLE_AFTER_MS: '1500' })) },
    });
    worker = startWorker(t);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await receiver?.stop();
  });

  it('are disabled after WEBHOOK_DISABLE_AFTER_MS, with the reason for the merchant to read', async () => {
    const m = await merchantWithKey(t.app);
    const api = as(t.app, m.key);
    const endpoint = await listen(t, m.key, receiver);
    receiver.status = 500;
    await api.post('/plans', planPayload(m.merchant.id));
    const disabled = await eventually(
      async () => {
        const e = (await api.get(`/webhook-endpoints/${endpoint.id}`)).body.webhook_endpoint;
        return e.disabled_at && e;
      },
      20_000,
      'disabled',
    );
    expect(disabled.disabled_reason).toMatch(
      /^no delivery succeeded for [\d.]+ h \(failing since .+\); last attempt: HTTP 500$/,
    );
    const [event] = (await api.get('/events?type=plan.created')).body.events;
    const [delivery] = (await api.get(`/events/${event.id}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/^endpoint disabled: /) });
    // Nothing more is sent to it.
    const before = receiver.received.length;
    await api.post('/plans', planPayload(m.merchant.id));
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.length).toBe(before);
  });
});
