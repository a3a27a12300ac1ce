// Client-side signing over the local network, on PGlite and PostgreSQL (issue 14, product.md):
// prepare → the merchant signs the hash with its own key → submit, through a channel account.
// A correct signature collects (200); a wrong one is a 4xx with nothing sent; a preparation past
// its time is refused; while one is open, a second prepare and /trigger-pull answer 409
// pull_prepared and no second transaction exists.
import { hash, Keypair, xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnvFor, startApp, TARGETS, type TestApp } from '../support/app.ts';
import { addChannels, closeLedgersEvery } from '../support/channels.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { post } from '../support/factories.ts';
import { accountsEnv } from '../support/keys.ts';
import { chainEnv, pullsOf, pullsOnChain, setUpPull, triggerPull } from '../support/pull-fixture.ts';
import { tokenBalance } from '../support/subscriber.ts';

let devnet: Devnet;
let stopLedgers: () => Promise<void>;
beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 0 });
  stopLedgers = closeLedgersEvery(devnet, 200);
});
afterAll(async () => {
  await stopLedgers?.();
  await devnet?.stop();
});

/** What the README tells a merchant to do with the prepare answer: check, then sign the hash. */
function sign(prepared: Record<string, any>, key: Keypair): string {
  const preimage = xdr.HashIdPreimage.fromXdr(prepared.preimage_xdr, 'base64');
  expect(Buffer.from(hash(preimage.toXdr())).toString('hex')).toBe(prepared.hash);
  return Buffer.from(key.sign(Buffer.from(prepared.hash, 'hex'))).toString('base64');
}

const pullFundsOf = async (devnet: Devnet, user: string) =>
  (await devnet.transactions()).filter((tx) => tx.function === 'pull_funds' && tx.args[0] === user);

describe.each(TARGETS)('client-side signing on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, {
      env: {
        ...chainEnv(devnet, { TX_POLL_TIMEOUT_MS: '20000' }),
        ...accountsEnv(),
        ...(await isolatedEnvFor(target)),
      },
    });
    await addChannels(t, devnet, 3);
  });
  afterAll(() => t?.close());

  it('prepare, a second prepare and /trigger-pull (409, nothing sent), a wrong signature (400, nothing sent), then the right one (200)', async () => {
    const s = await setUpPull(t, devnet);
    t.clock.set('2032-01-01T00:00:00.000Z');
    const prepared = await post(t.app, `/subscriptions/${s.subscriptionId}/pulls/prepare`, {});
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(201);
    expect(prepared.body).toEqual({
      pull: { id: expect.any(String), status: 'prepared', expires_at: '2032-01-01T00:05:00.000Z' },
      preimage_xdr: expect.any(String),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      signature_expiration_ledger: expect.any(Number),
    });
    // The preimage is the merchant's authorisation of pull_funds(user, merchant) on the vault.
    const preimage = xdr.HashIdPreimage.fromXdr(prepared.body.preimage_xdr, 'base64');
    expect(preimage.type).toBe('envelopeTypeSorobanAuthorizationWithAddress');

    const again = await post(t.app, `/subscriptions/${s.subscriptionId}/pulls/prepare`, {});
    expect(again).toMatchObject({
      status: 409,
      body: { error: "A prepared pull awaits the merchant's signature", code: 'pull_prepared' },
    });
    const trigger = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(trigger).toMatchObject({
      status: 409,
      body: { error: "A prepared pull awaits the merchant's signature", code: 'pull_prepared' },
    });

    const wrong = await post(t.app, `/pulls/${prepared.body.pull.id}/submit`, {
      signature: sign(prepared.body, Keypair.random()),
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'signature_invalid' } });
    expect(await pullFundsOf(devnet, s.user.publicKey())).toHaveLength(0);

    const before = await tokenBalance(devnet, s.user.publicKey());
    const ok = await post(t.app, `/pulls/${prepared.body.pull.id}/submit`, {
      signature: sign(prepared.body, s.merchant),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({
      message: 'Successfully pulled funds on-chain!',
      txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await tokenBalance(devnet, s.user.publicKey())).toBe(before - s.amount);
    const onChain = await pullFundsOf(devnet, s.user.publicKey());
    expect(onChain).toHaveLength(1);
    expect(onChain[0].source).not.toBe(s.merchant.publicKey());
    expect(await pullsOnChain(devnet, s.merchant.publicKey())).toHaveLength(0);
    expect((await pullsOf(t, s.subscriptionId)).map((p) => p.status)).toEqual(['confirmed']);

    const twice = await post(t.app, `/pulls/${prepared.body.pull.id}/submit`, {
      signature: sign(prepared.body, s.merchant),
    });
    expect(twice).toMatchObject({ status: 409, body: { code: 'pull_submitted' } });
    expect(await pullFundsOf(devnet, s.user.publicKey())).toHaveLength(1);
  });

  it('a preparation past its 5 minutes is refused (409 pull_expired, nothing sent); /trigger-pull then works', async () => {
    const s = await setUpPull(t, devnet);
    t.clock.set('2032-02-01T00:00:00.000Z');
    const prepared = await post(t.app, `/subscriptions/${s.subscriptionId}/pulls/prepare`, {});
    expect(prepared.status).toBe(201);
    t.clock.set('2032-02-01T00:05:00.001Z');
    const late = await post(t.app, `/pulls/${prepared.body.pull.id}/submit`, {
      signature: sign(prepared.body, s.merchant),
    });
    expect(late).toMatchObject({
      status: 409,
      body: { error: 'The prepared pull expired before it was signed: prepare it again', code: 'pull_expired' },
    });
    expect(await pullFundsOf(devnet, s.user.publicKey())).toHaveLength(0);
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await pullFundsOf(devnet, s.user.publicKey())).toHaveLength(1);
  });

  it('a signature of the hash by a key other than the plan owner’s wallet never reaches the network', async () => {
    const s = await setUpPull(t, devnet);
    t.clock.set('2032-03-01T00:00:00.000Z');
    const prepared = await post(t.app, `/subscriptions/${s.subscriptionId}/pulls/prepare`, {});
    const garbage = await post(t.app, `/pulls/${prepared.body.pull.id}/submit`, { signature: 'not base64!' });
    expect(garbage.status).toBe(400);
    const zeros = await post(t.app, `/pulls/${prepared.body.pull.id}/submit`, {
      signature: Buffer.alloc(64).toString('base64'),
    });
    expect(zeros).toMatchObject({ status: 400, body: { code: 'signature_invalid' } });
    expect(await pullFundsOf(devnet, s.user.publicKey())).toHaveLength(0);
  });
});
