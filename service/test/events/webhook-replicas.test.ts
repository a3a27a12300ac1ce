// Delivery across real processes on one PostgreSQL server: two replicas deliver every event exactly
// once between them (the database hands each delivery to one), and a replica killed with SIGKILL
// while a receiver holds its request leaves a delivery that the next process makes (at least once,
// same webhook-id). PGlite is one process's database, so this runs on the server only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedPgUrl } from '../support/app.ts';
import { planPayload } from '../support/factories.ts';
import { ADMIN_KEY, KEK } from '../support/keys.ts';
import { eventually, startReceiver, type Receiver } from '../support/receiver.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.ts';

// Each test's processes get a database of their own: no other suite's worker claims their deliveries.
let databaseUrl = '';
const env = (over: Record<string, string> = {}) => ({
  DATABASE_URL: databaseUrl,
  DB_POOL_SIZE: '4',
  ADMIN_API_KEY: ADMIN_KEY,
  SIGNING_KEY_ENCRYPTION_KEY: KEK,
  CURSOR_SECRET: `cursor-${'c'.repeat(40)}`,
  RECONCILE_INTERVAL_MS: '0',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
  ...over,
});

async function call(base: string, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function merchantWithEndpoint(base: string, receiver: Receiver) {
  const wallet = (await import('../support/factories.ts')).newWallet();
  const m = await call(base, 'POST', '/merchants', ADMIN_KEY, { name: 'Replicated', wallet_address: wallet });
  const e = await call(base, 'POST', '/webhook-endpoints', m.body.api_key, {
    url: receiver.url,
    event_types: ['plan.created'],
  });
  expect(e.status, JSON.stringify(e.body)).toBe(201);
  receiver.secrets.push(e.body.secret);
  return { merchantId: m.body.merchant.id as string, key: m.body.api_key as string };
}

describe('webhook delivery across processes (PostgreSQL)', () => {
  const started: ServiceProcess[] = [];
  const receivers: Receiver[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.kill('SIGKILL')));
    await Promise.all(receivers.map((r) => r.stop()));
  });

  describe('two replicas', () => {
    let a: ServiceProcess;
    let b: ServiceProcess;
    beforeAll(async () => {
      databaseUrl = await isolatedPgUrl();
      a = await startServiceProcess(env());
      b = await startServiceProcess(env());
      started.push(a, b);
    }, 60_000);
    // Any live replica would deliver the next test's events too.
    afterAll(async () => {
      await a?.kill();
      await b?.kill();
    });

    it('deliver every event once between them', async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const m = await merchantWithEndpoint(a.url, receiver);
      const N = 30;
      const created = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          call(i % 2 ? b.url : a.url, 'POST', '/plans', m.key, planPayload(m.merchantId, { name: `Plan ${i}` })),
        ),
      );
      expect(created.every((c) => c.status === 201)).toBe(true);
      await receiver.waitFor((r) => r.length >= N, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.arrivals).toHaveLength(N);
      expect(new Set(receiver.arrivals).size).toBe(N);
      expect(receiver.verifiedIds()).toHaveLength(N);
      const events = (await call(b.url, 'GET', '/events?type=plan.created&limit=100', m.key)).body.events;
      for (const e of events) {
        const d = (await call(a.url, 'GET', `/events/${e.id}/deliveries`, m.key)).body.deliveries;
        expect(d).toMatchObject([{ status: 'delivered', attempts: 1, log: [{ delivered: true }] }]);
      }
    }, 60_000);
  });

  it('a process killed mid-delivery: the next process delivers it, with the same webhook-id', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    databaseUrl = await isolatedPgUrl();
    // Lease = 2 × timeout + 5 s: the killed attempt's delivery comes due again about 8 s later.
    const first = await startServiceProcess(env({ WEBHOOK_TIMEOUT_MS: '1500' }));
    started.push(first);
    const m = await merchantWithEndpoint(first.url, receiver);
    receiver.delayMs = 1_000;
    const plan = await call(first.url, 'POST', '/plans', m.key, planPayload(m.merchantId));
    expect(plan.status).toBe(201);
    await eventually(async () => receiver.arrivals.length >= 1, 20_000, 'the first attempt reaching the receiver');
    await first.kill('SIGKILL');
    const id = receiver.arrivals[0];
    await new Promise((r) => setTimeout(r, 1_200));
    expect(receiver.received).toHaveLength(0); // its answer went to a dead process
    receiver.delayMs = 0;
    const second = await startServiceProcess(env({ WEBHOOK_TIMEOUT_MS: '1500' }));
    started.push(second);
    await receiver.waitFor((r) => r.some((x) => x.id === id), 30_000);
    expect(receiver.received.find((x) => x.id === id)!.verifiedBy).toEqual([0]);
    expect(receiver.arrivals.filter((x) => x === id).length).toBeGreaterThanOrEqual(2);
    const d = await eventually(async () => {
      const list = (await call(second.url, 'GET', `/events/${id}/deliveries`, m.key)).body.deliveries;
      return list[0]?.status === 'delivered' && list[0];
    });
    // The killed attempt left no log line; the one that counted did.
    expect(d.log.filter((l: { delivered: boolean }) => l.delivered)).toHaveLength(1);
    expect(d.attempts).toBe(2);
  }, 60_000);
});
