// Stored signing keys over HTTP, on both databases: PUT/DELETE /merchants/{id}/signing-key, only
// the merchant wallet's own key, sealed with AES-256-GCM (the table never holds the secret), a
// store without SIGNING_KEY_ENCRYPTION_KEY refusing, and key-encryption-key rotation re-wrapping
// while old ciphertexts keep opening. Pulls with a stored key are in test/chain.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOpenSigningKey } from '../../src/billing/signing-keys/open-signing-key.ts';
import { makeRotateKek } from '../../src/billing/signing-keys/rotate-kek.ts';
import { SigningKeyResponse } from '../../src/schemas/signing-keys.ts';
import { createSecretBox } from '../../src/secrets/aes-gcm-box.ts';
import { TARGETS, startApp, type TestApp } from '../support/app.ts';
import { ADMIN_KEY, KEK, accountsEnv, as, merchantWithKey } from '../support/keys.ts';

const rowOf = async (t: TestApp, merchantId: string) =>
  (await t.deps.db.query<Record<string, string>>('SELECT * FROM signing_keys WHERE merchant_id = $1', [merchantId]))
    .rows[0];

describe.each(TARGETS)('signing keys on %s', (target) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    t = await startApp(target, { env: { ...accountsEnv(), LOG_LEVEL: 'trace' }, logDestination: stream });
  });
  afterAll(() => t.close());

  it('PUT stores the wallet key sealed: 200 with the public key only, the table holds no secret', async () => {
    const wallet = Keypair.random();
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    const res = await as(t.app, key).put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(SigningKeyResponse.parse(res.body).signing_key).toEqual({
      public_key: wallet.publicKey(),
      created_at: expect.any(String),
    });
    const row = await rowOf(t, merchant.id);
    expect(row).toMatchObject({ public_key: wallet.publicKey(), kek_id: 'default' });
    const stored = JSON.stringify(row);
    const raw = Buffer.from(row.ciphertext, 'base64');
    for (const form of [
      wallet.secret(),
      Buffer.from(wallet.secret()).toString('base64'),
      Buffer.from(wallet.rawSecretKey()).toString('hex'),
    ]) {
      expect(stored).not.toContain(form);
    }
    expect(raw.includes(Buffer.from(wallet.secret()))).toBe(false);
    expect(raw.includes(Buffer.from(wallet.rawSecretKey()))).toBe(false);
    // Nor in an answer or a log line.
    await new Promise((r) => setTimeout(r, 400)); // the logger flushes every 250 ms
    expect(JSON.stringify(res.body)).not.toContain(wallet.secret());
    expect(lines.join('')).not.toContain(wallet.secret());
  });

  it('PUT replaces a stored key; DELETE removes it; a second DELETE is 404 Signing key not found', async () => {
    const wallet = Keypair.random();
    const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
    const me = as(t.app, key);
    await me.put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() });
    const first = (await rowOf(t, merchant.id)).ciphertext;
    expect((await me.put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() })).status).toBe(200);
    // A fresh nonce each time: the same secret never gives the same ciphertext.
    expect((await rowOf(t, merchant.id)).ciphertext).not.toBe(first);
    expect(await me.del(`/merchants/${merchant.id}/signing-key`)).toMatchObject({
      status: 200,
      body: { message: 'Signing key removed' },
    });
    expect(await rowOf(t, merchant.id)).toBeUndefined();
    expect(await me.del(`/merchants/${merchant.id}/signing-key`)).toMatchObject({
      status: 404,
      body: { error: 'Signing key not found' },
    });
  });

  it("400 for a secret that is not a key, or not the key of the merchant's wallet", async () => {
    const { merchant, key } = await merchantWithKey(t.app);
    const me = as(t.app, key);
    const url = `/merchants/${merchant.id}/signing-key`;
    expect((await me.put(url, { secret: 'SNOTAKEY' })).body).toEqual({
      error: 'Invalid input on secret: secret must be a valid Stellar secret key (S…)',
    });
    expect((await me.put(url, { secret: Keypair.random().secret() })).body).toEqual({
      error: `Invalid input on secret: secret is not the key of the merchant's wallet ${merchant.wallet_address}`,
    });
    expect((await me.put(url, { secret: ' ' })).body).toEqual({ error: 'Invalid input on secret: secret is required' });
    expect((await me.put(url, {})).status).toBe(400);
    expect(await rowOf(t, merchant.id)).toBeUndefined();
  });

  it("the operator key may set a merchant's key too; without a key the route is 401 even in open mode", async () => {
    const wallet = Keypair.random();
    const { merchant } = await merchantWithKey(t.app, wallet.publicKey());
    expect((await as(t.app).put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() })).body.code).toBe(
      'api_key_required',
    );
    expect(
      (await as(t.app, ADMIN_KEY).put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() })).status,
    ).toBe(200);
  });

  it('rotating the key-encryption key re-wraps every key; old ciphertexts open until then', async () => {
    const wallets = [Keypair.random(), Keypair.random()];
    const ids: string[] = [];
    for (const w of wallets) {
      const { merchant, key } = await merchantWithKey(t.app, w.publicKey());
      await as(t.app, key).put(`/merchants/${merchant.id}/signing-key`, { secret: w.secret() });
      ids.push(merchant.id);
    }
    const old = { id: 'default', key: Buffer.from(KEK, 'base64') };
    const fresh = { id: 'k2', key: randomBytes(32) };
    const both = createSecretBox([fresh, old]);
    const open = (box: ReturnType<typeof createSecretBox>) =>
      makeOpenSigningKey({ signingKeys: t.deps.repos.signingKeys, box, gateway: t.deps.gateway });
    // Before rotation: the new list still opens the old ciphertexts; the new key alone does not.
    expect((await open(both)(ids[0])).publicKey).toBe(wallets[0].publicKey());
    await expect(open(createSecretBox([fresh]))(ids[0])).rejects.toMatchObject({ code: 'SIGNING_KEY_STORE' });

    const result = await makeRotateKek({ signingKeys: t.deps.repos.signingKeys, box: both })();
    expect(result.primaryKekId).toBe('k2');
    expect(result.rewrapped).toBeGreaterThanOrEqual(2);
    // (On the shared server, other test files' keys are sealed under their own KEKs: unreadable here.)
    for (const id of ids) expect(result.unreadable).not.toContain(id);
    for (const [i, id] of ids.entries()) {
      expect((await rowOf(t, id)).kek_id).toBe('k2');
      // After rotation the old key can be dropped from the list.
      expect((await open(createSecretBox([fresh]))(id)).publicKey).toBe(wallets[i].publicKey());
    }
    // Nothing left to do the second time.
    expect((await makeRotateKek({ signingKeys: t.deps.repos.signingKeys, box: both })()).rewrapped).toBe(0);
    // Put the table back under this app's key for the other tests.
    await makeRotateKek({ signingKeys: t.deps.repos.signingKeys, box: createSecretBox([old, fresh]) })();
  });

  it('a ciphertext moved onto another merchant does not open', async () => {
    const w = Keypair.random();
    const a = await merchantWithKey(t.app, w.publicKey());
    const b = await merchantWithKey(t.app, w.publicKey()); // same wallet, another merchant
    await as(t.app, a.key).put(`/merchants/${a.merchant.id}/signing-key`, { secret: w.secret() });
    const row = await rowOf(t, a.merchant.id);
    await t.deps.db.query(
      'INSERT INTO signing_keys (merchant_id, public_key, kek_id, ciphertext) VALUES ($1, $2, $3, $4)',
      [b.merchant.id, row.public_key, row.kek_id, row.ciphertext],
    );
    const open = makeOpenSigningKey({
      signingKeys: t.deps.repos.signingKeys,
      box: t.deps.box,
      gateway: t.deps.gateway,
    });
    await expect(open(b.merchant.id)).rejects.toMatchObject({ code: 'SIGNING_KEY_STORE' });
    expect((await open(a.merchant.id)).publicKey).toBe(w.publicKey());
  });
});

describe('without SIGNING_KEY_ENCRYPTION_KEY', () => {
  it('the store refuses with a clear 500 and writes nothing', async () => {
    const t = await startApp('pglite', { env: { ADMIN_API_KEY: ADMIN_KEY } });
    try {
      const wallet = Keypair.random();
      const { merchant, key } = await merchantWithKey(t.app, wallet.publicKey());
      const res = await as(t.app, key).put(`/merchants/${merchant.id}/signing-key`, { secret: wallet.secret() });
      expect(res).toMatchObject({
        status: 500,
        body: { error: 'Signing keys cannot be stored or used: SIGNING_KEY_ENCRYPTION_KEY is not set on the server' },
      });
      expect((await t.deps.db.query('SELECT 1 FROM signing_keys')).rows).toHaveLength(0);
      await expect(t.deps.accountVerbs.rotateKek()).rejects.toMatchObject({ code: 'SIGNING_KEY_STORE' });
    } finally {
      await t.close();
    }
  });
});
