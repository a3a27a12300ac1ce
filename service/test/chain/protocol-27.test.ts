// On a protocol-27 network whose ledgers carry other accounts' traffic signed with every
// credential arm (source account, ADDRESS, ADDRESS_V2, and ADDRESS_WITH_DELEGATES from a custom
// account), a pull succeeds and every simulation failure is still named: the service never
// depends on decoding a whole ledger's meta (SDK 15 threw on the v2 arm and lost every cause).
import { rpc } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TARGETS, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { chainEnv, pullsOf, setUpPull, triggerPull } from '../support/pull-fixture.ts';

let devnet: Devnet;
type Traffic = { hash: string; ledger: number; credentials: string; expected: 'SUCCESS' | 'FAILED' }[];

/** Keeps other accounts' traffic in the coming ledgers, every credential arm included. */
async function traffic(): Promise<Traffic> {
  return (await devnet.control<{ transactions: Traffic }>('/traffic', { count: 40, ledgers: 10 })).transactions;
}

beforeAll(async () => {
  devnet = await startDevnet({ ledgerMs: 500 });
});
afterAll(() => devnet?.stop());

describe('the local network speaks protocol 27', () => {
  it('reports protocol 27 and serves ledgers with ADDRESS_V2 and WITH_DELEGATES entries the SDK 17 client decodes', async () => {
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    expect((await server.getNetwork()).protocolVersion).toBe(27);
    const scheduled = await traffic();
    expect(new Set(scheduled.map((tx) => tx.credentials))).toEqual(
      new Set(['sourceAccount', 'address', 'addressV2', 'addressWithDelegates']),
    );
    const last = Math.max(...scheduled.map((tx) => tx.ledger));
    while ((await server.getLatestLedger()).sequence < last) await new Promise((r) => setTimeout(r, 200));
    const latest = await server.getLatestLedger();
    expect(Number(latest.protocolVersion)).toBe(27);
    for (const arm of ['addressV2', 'addressWithDelegates']) {
      const sent = scheduled.find((tx) => tx.credentials === arm)!;
      const tx = await server.getTransaction(sent.hash);
      expect(tx.status).toBe(sent.expected);
      if (tx.status === 'NOT_FOUND') continue;
      // The envelope, decoded by SDK 17, carries that credential arm.
      expect(JSON.stringify(tx.envelopeXdr.toJson())).toContain(
        arm === 'addressV2' ? '"address_v2"' : '"address_with_delegates"',
      );
    }
  });
});

describe.each(TARGETS)('pulls among protocol-27 traffic on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { env: chainEnv(devnet) });
  });
  afterAll(() => t?.close());

  it('a pull succeeds and records its transfer', async () => {
    await traffic();
    const s = await setUpPull(t, devnet);
    t.clock.set('2031-02-01T00:00:00.000Z');
    const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await pullsOf(t, s.subscriptionId))[0]).toMatchObject({
      status: 'confirmed',
      transferred_amount: Number(s.amount),
    });
  });

  it('every simulation failure is still named: too early, vault missing, allowance, balance', async () => {
    await traffic();
    const early = await setUpPull(t, devnet, { intervalSeconds: 7200 });
    t.clock.set('2031-02-02T00:00:00.000Z');
    expect((await triggerPull(t, early.subscriptionId, early.merchant.secret())).status).toBe(200);
    t.clock.set('2031-02-02T03:00:00.000Z'); // due for the service, not for the ledger
    const missing = await setUpPull(t, devnet, { withoutVault: true });
    const allowance = await setUpPull(t, devnet, { amountPerInterval: 5_000_000n, allowance: 4_999_999n });
    const balance = await setUpPull(t, devnet, { amountPerInterval: 5_000_000n, balance: 1n });
    const codes = [];
    for (const s of [early, missing, allowance, balance]) {
      const res = await triggerPull(t, s.subscriptionId, s.merchant.secret());
      expect(res.status).toBe(500);
      codes.push(res.body.code);
    }
    expect(codes).toEqual(['too_early', 'vault_missing', 'insufficient_allowance', 'insufficient_balance']);
  });
});
