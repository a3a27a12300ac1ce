// GET /api-keys/current: a merchant key answers with its merchant and key id, the operator key as
// the operator; no key is 401 in both modes. On both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { ADMIN_KEY, accountsEnv, as, merchantWithKey } from '../support/keys.ts';

describe.each(TARGETS)('GET /api-keys/current on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: accountsEnv({ AUTH_MODE: 'open' }) });
  });
  afterAll(() => t?.close());

  it("names a merchant key's merchant and key", async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const res = await as(t.app, key).get('/api-keys/current');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      actor: 'merchant',
      merchant: expect.objectContaining({ id: merchant.id, name: merchant.name }),
      key_id: expect.any(String),
    });
    const keys = await as(t.app, key).get(`/merchants/${merchant.id}/api-keys`);
    expect(keys.body.keys.map((k: { id: string }) => k.id)).toContain(res.body.key_id);
  });

  it('answers the operator key as the operator, and no key with 401', async () => {
    expect((await as(t.app, ADMIN_KEY).get('/api-keys/current')).body).toEqual({
      actor: 'operator',
      merchant: null,
      key_id: null,
    });
    expect((await as(t.app).get('/api-keys/current')).body.code).toBe('api_key_required');
  });
});
