// The HTTP edge under hostile clients, over real sockets where it matters: a body or headers sent
// a byte at a time are cut off at their timeout, connections beyond HTTP_MAX_CONNECTIONS are
// refused, the rate limit reads X-Forwarded-For only from TRUST_PROXY, and /metrics can move to
// its own port or ask for the operator key without scrapes reaching the database each time.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMetricsApp } from '../../src/app.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { createMerchant, createPlan, createSubscription } from '../support/factories.ts';
import { ADMIN_KEY, accountsEnv, as, merchantWithKey } from '../support/keys.ts';
import { freePort } from '../support/pg-server.ts';
import { startServiceProcess } from '../support/service-process.ts';

const noDb = { NODE_ENV: 'production' };

/** Resolves when the server closes the socket, with what it sent and how long it took. */
function closed(socket: Socket, started: number): Promise<{ ms: number; data: string }> {
  let data = '';
  socket.on('data', (d) => (data += d.toString()));
  return new Promise((resolve) => socket.on('close', () => resolve({ ms: Date.now() - started, data })));
}

async function listening(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as { port: number }).port;
}

/** Writes one byte every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

describe('slow clients', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startApp(null, { env: { ...noDb, HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_HEADERS_TIMEOUT_MS: '1000' } });
    port = await listening(t);
  });
  afterAll(() => t.close());

  it('a body sent one byte at a time is cut off at HTTP_REQUEST_TIMEOUT_MS (408, connection closed)', async () => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    const done = closed(socket, started);
    socket.write(
      'POST /merchants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n',
    );
    trickle(socket, `{"name":"${'x'.repeat(480)}"}`, 200);
    const { ms, data } = await done;
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(1_400);
    expect(ms).toBeLessThan(3_500); // the timeout plus Node's once-a-second check
  });

  it('headers sent one byte at a time are cut off at HTTP_HEADERS_TIMEOUT_MS', async () => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    const done = closed(socket, started);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    trickle(socket, `X-Slow: ${'y'.repeat(100)}\r\n\r\n`, 200);
    const { ms } = await done;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
  });
});

describe('connection cap', () => {
  it('connections beyond HTTP_MAX_CONNECTIONS are closed at once; a freed slot serves again', async () => {
    const t = await startApp(null, { env: { ...noDb, HTTP_MAX_CONNECTIONS: '2' } });
    const sockets: Socket[] = [];
    try {
      const port = await listening(t);
      const open = async () => {
        const s = connect(port, '127.0.0.1');
        sockets.push(s);
        await new Promise((r) => s.once('connect', r));
        return s;
      };
      const first = await open();
      await open();
      await new Promise((r) => setTimeout(r, 100)); // the server has accepted both
      const third = await open();
      const refused = closed(third, Date.now());
      third.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      const { ms, data } = await refused;
      expect(data).toBe('');
      expect(ms).toBeLessThan(1_000);

      first.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(res.status).toBe(503); // served (no database here), not refused
    } finally {
      for (const s of sockets) s.destroy();
      await t.close();
    }
  });
});

describe('rate limit behind a trusted proxy', () => {
  const hit = (t: TestApp, forwardedFor: string, remoteAddress = '127.0.0.1') =>
    t.app
      .inject({ method: 'GET', url: '/plans/not-a-uuid', headers: { 'x-forwarded-for': forwardedFor }, remoteAddress })
      .then((r) => r.statusCode);

  it('without TRUST_PROXY, X-Forwarded-For is ignored: one budget for the socket address', async () => {
    const t = await startApp(null, { env: { ...noDb, RATE_LIMIT_MAX: '2' } });
    try {
      expect([await hit(t, '1.1.1.1'), await hit(t, '2.2.2.2'), await hit(t, '3.3.3.3')]).toEqual([400, 400, 429]);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY, each forwarded client has its own budget, but only through the trusted proxy', async () => {
    const t = await startApp(null, { env: { ...noDb, RATE_LIMIT_MAX: '2', TRUST_PROXY: '127.0.0.1, 10.1.0.0/16' } });
    try {
      expect([await hit(t, '1.1.1.1'), await hit(t, '2.2.2.2'), await hit(t, '3.3.3.3')]).toEqual([400, 400, 400]);
      expect([await hit(t, '4.4.4.4'), await hit(t, '4.4.4.4'), await hit(t, '4.4.4.4')]).toEqual([400, 400, 429]);
      expect(await hit(t, '5.5.5.5', '10.1.2.3')).toBe(400);
      // A client talking directly cannot pick its own address.
      const direct = [
        await hit(t, '6.6.6.6', '203.0.113.9'),
        await hit(t, '7.7.7.7', '203.0.113.9'),
        await hit(t, '8.8.8.8', '203.0.113.9'),
      ];
      expect(direct).toEqual([400, 400, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('/metrics exposure', () => {
  it('METRICS_PORT: served by its own app, not on the API port', async () => {
    const t = await startApp(null, { env: { ...noDb, METRICS_PORT: '9464', AUTH_MODE: 'keys' } });
    const metrics = buildMetricsApp(t.deps);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      const res = await metrics.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('# TYPE http_requests_total counter');
      expect((await metrics.inject({ method: 'GET', url: '/plans' })).statusCode).toBe(404);
    } finally {
      await metrics.close();
      await t.close();
    }
  });

  it('the service process listens on METRICS_PORT for /metrics alone', async () => {
    const metricsPort = await freePort();
    const svc = await startServiceProcess({
      DATABASE_URL: 'memory://',
      METRICS_PORT: String(metricsPort),
      RECONCILE_INTERVAL_MS: '0',
    });
    try {
      expect((await fetch(`${svc.url}/metrics`)).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_requests_total');
    } finally {
      await svc.kill();
    }
  });

  it('METRICS_AUTH=operator: only the operator key reads it', async () => {
    const t = await startApp('pglite', { env: accountsEnv({ METRICS_AUTH: 'operator' }) });
    try {
      const { key } = await merchantWithKey(t.app);
      expect((await as(t.app).get('/metrics')).body.code).toBe('api_key_required');
      expect((await as(t.app, key).get('/metrics')).body.code).toBe('operator_only');
      expect((await as(t.app, ADMIN_KEY).get('/metrics')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('scrapes reuse the pending-pulls figure instead of querying each time', async () => {
    const t = await startApp('pglite');
    try {
      const pendingOf = async () =>
        Number(/^billing_pull_attempts_pending (\d+)$/m.exec((await as(t.app).get('/metrics')).body.text)?.[1]);
      const before = await pendingOf();
      const m = await createMerchant(t.app);
      const sub = await createSubscription(t.app, (await createPlan(t.app, m.id)).id);
      await t.deps.db.query(
        `INSERT INTO pulls (subscription_id, merchant_id, amount, tx_hash, envelope_xdr, source_account, max_time, status, created_at, updated_at)
         VALUES ($1, $2, 1, $3, 'AAAA', 'G', now(), 'pending', now(), now())`,
        [sub.id, m.id, 'f'.repeat(64)],
      );
      // The row is there, but the scrapes within the refresh interval do not go and count it.
      for (let i = 0; i < 5; i++) expect(await pendingOf()).toBe(before);
    } finally {
      await t.close();
    }
  });
});
