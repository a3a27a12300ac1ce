// GET /ready, GET /metrics after a few requests, and the x-request-id header, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingMigrations, shippedMigrations } from '../../src/storage/migrate.ts';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { createMerchant, createPlan, get, unknownId } from '../support/factories.ts';

/** The value of one sample line of the exposition text, or undefined. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && labels.split(',').every((kv) => l.includes(kv)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe.each(TARGETS)('operations on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  it('GET /ready: 200 once every shipped migration is applied', async () => {
    const res = await get(t.app, '/ready');
    expect(res).toEqual({ status: 200, body: { status: 'ready', migrations: shippedMigrations().length } });
    expect(shippedMigrations()).toContain('0003_listing_indexes');
  });

  it('GET /metrics: request counts and latency by route pattern and status, pending attempts', async () => {
    const plan = await createPlan(t.app, (await createMerchant(t.app)).id);
    for (let i = 0; i < 3; i++) expect((await get(t.app, `/plans/${plan.id}`)).status).toBe(200);
    expect((await get(t.app, `/plans/${unknownId()}`)).status).toBe(404);
    expect((await get(t.app, '/no/such/route')).status).toBe(404);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(sample(text, 'http_requests_total', 'route="/plans/:id",status="200"')).toBe(3);
    expect(sample(text, 'http_requests_total', 'route="/plans/:id",status="404"')).toBe(1);
    expect(sample(text, 'http_requests_total', 'route="unmatched",status="404"')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="GET",route="/plans/:id",status="200"')).toBe(3);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/plans\/:id",status="200"\} \d/,
    );
    expect(text).toMatch(/^billing_pull_attempts_pending \d+$/m);
    expect(text).toContain('# TYPE billing_pull_outcomes_total counter');
    expect(text).toContain('# TYPE soroban_rpc_call_duration_seconds histogram');
  });

  it("echoes x-request-id: the caller's when sane, a fresh UUID otherwise", async () => {
    const given = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const fresh = await t.app.inject({ method: 'GET', url: '/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await t.app.inject({
      method: 'GET',
      url: '/nowhere',
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /ready before migrations', () => {
  it('503 naming the migrations not applied', async () => {
    // A fresh in-memory database that never migrated.
    const t = await startApp(null, { env: { DATABASE_URL: 'memory://' } });
    try {
      await t.deps.db.query('DROP TABLE IF EXISTS schema_migrations');
      expect(await pendingMigrations(t.deps.db)).toEqual(shippedMigrations());
      const res = await get(t.app, '/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: 'unavailable',
        error: `migrations not applied: ${shippedMigrations().join(', ')}`,
      });
    } finally {
      await t.close();
    }
  });

  it('503 without a database', async () => {
    const t = await startApp(null, { env: { NODE_ENV: 'production' } });
    try {
      const res = await get(t.app, '/ready');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('unavailable');
    } finally {
      await t.close();
    }
  });
});
