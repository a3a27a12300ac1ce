// GET /health: 200 while the database answers, 503 when it does not; on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';

describe.each(TARGETS)('GET /health on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.app.close());

  it('200 {"status":"ok"} while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('503 with an error string once the database is gone', async () => {
    await t.deps.db.close();
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', error: expect.any(String) });
    // The same outage on a route that needs the database: 500, the driver's message passed through.
    const plan = await t.app.inject({ method: 'GET', url: `/plans/${crypto.randomUUID()}` });
    expect(plan.statusCode).toBe(500);
    expect(plan.json()).toEqual({ error: expect.any(String) });
  });
});
