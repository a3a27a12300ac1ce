// POST /subscriber/subscriptions (/manage): a wallet sees its own subscriptions across merchants by
// signing a short, fresh message (SEP-53); a wrong, stale or someone else's signature sees nothing.
// On both databases, in keys mode (no key needed).
import { createHash } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manageMessage } from '../../src/billing/subscribers/list-wallet-subscriptions.ts';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { ADMIN_KEY, accountsEnv, as } from '../support/keys.ts';
import { planPayload } from '../support/factories.ts';

/** What Freighter's signMessage returns: ed25519 over SHA-256("Stellar Signed Message:\n" + message). */
const sign = (kp: Keypair, message: string) =>
  Buffer.from(kp.sign(createHash('sha256').update(`Stellar Signed Message:\n${message}`).digest())).toString('base64');

describe.each(TARGETS)('POST /subscriber/subscriptions on %s', (target) => {
  let t: TestApp;
  const wallet = Keypair.random();
  beforeAll(async () => {
    t = await startApp(target, { env: accountsEnv({ AUTH_MODE: 'keys' }) });
    t.clock.set('2031-01-01T12:00:00.000Z');
    const admin = as(t.app, ADMIN_KEY);
    for (const name of ['First Co', 'Second Co']) {
      const m = await admin.post('/merchants', { name, wallet_address: Keypair.random().publicKey() });
      const plan = await admin.post('/plans', planPayload(m.body.merchant.id, { name: `${name} plan` }));
      const sub = await admin.post('/subscriptions', {
        plan_id: plan.body.plan.id,
        customer_wallet_address: wallet.publicKey(),
      });
      expect(sub.status).toBe(201);
    }
    // Someone else's subscription, which the wallet must not see.
    const other = await admin.post('/merchants', { name: 'Third Co', wallet_address: Keypair.random().publicKey() });
    const plan = await admin.post('/plans', planPayload(other.body.merchant.id));
    await admin.post('/subscriptions', {
      plan_id: plan.body.plan.id,
      customer_wallet_address: Keypair.random().publicKey(),
    });
  });
  afterAll(() => t?.close());

  const ask = (body: unknown) => as(t.app).post('/subscriber/subscriptions', body);

  it('lists the wallet’s subscriptions with plans and merchants, without a key', async () => {
    const at = '2031-01-01T11:58:00.000Z';
    const res = await ask({
      wallet: wallet.publicKey(),
      signed_at: at,
      signature: sign(wallet, manageMessage(wallet.publicKey(), at)),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.subscriptions).toHaveLength(2);
    expect(res.body.subscriptions.map((s: { merchant: { name: string } }) => s.merchant.name)).toEqual([
      'First Co',
      'Second Co',
    ]);
    expect(res.body.subscriptions[0]).toMatchObject({
      customer_wallet_address: wallet.publicKey(),
      status: 'active',
      plan: { name: 'First Co plan', token_amount: 100000000, interval_seconds: 2592000 },
    });
  });

  it('refuses another key’s signature, another message, and a stale one', async () => {
    const at = '2031-01-01T12:00:00.000Z';
    const intruder = Keypair.random();
    const wrongKey = await ask({
      wallet: wallet.publicKey(),
      signed_at: at,
      signature: sign(intruder, manageMessage(wallet.publicKey(), at)),
    });
    expect(wrongKey).toMatchObject({
      status: 400,
      body: { error: "Invalid input on signature: signature is not the wallet's signature of the message" },
    });
    const wrongText = await ask({
      wallet: wallet.publicKey(),
      signed_at: at,
      signature: sign(wallet, 'something else'),
    });
    expect(wrongText.status).toBe(400);
    const old = '2031-01-01T11:50:00.000Z';
    const stale = await ask({
      wallet: wallet.publicKey(),
      signed_at: old,
      signature: sign(wallet, manageMessage(wallet.publicKey(), old)),
    });
    expect(stale).toMatchObject({
      status: 400,
      body: { error: 'Invalid input on signed_at: the message must be signed within 300 seconds of the request' },
    });
    expect((await ask({ wallet: 'nope', signed_at: at, signature: 'x' })).status).toBe(400);
  });
});
