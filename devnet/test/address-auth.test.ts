// Address credentials: a channel account is the transaction source and the merchant
// signs only its SorobanAuthorizationEntry (authorizeEntry), as channel-account
// submitters do. Replay, expiry and a wrong signer are refused like on chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeEntry, rpc, xdr, type Keypair } from '@stellar/stellar-sdk';
import { buildCall, closeLedger, control, kp, prepareAndSign, sendAndClose, startTestDevnet, type Ctx } from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
let vault: string;
let user: Keypair;
let merchant: Keypair;
let channel: Keypair;
beforeAll(async () => {
  ctx = await startTestDevnet();
  vault = ctx.devnet.contracts.vault;
  [user, merchant, channel] = [kp(ctx, 0), kp(ctx, 1), kp(ctx, 2)];
  await fundAndApprove(ctx, user, 10_000n, 10_000n);
  await createVault(ctx, user, merchant, { amount: 100n, interval: 60n });
});
afterAll(() => ctx.devnet.close());

/** Simulates pull_funds from the channel and returns the merchant's entry signed until `validUntil`. */
async function merchantSignedEntry(signer: Keypair, validUntil?: number): Promise<xdr.SorobanAuthorizationEntry> {
  const sim = await ctx.server.simulateTransaction(await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant)));
  if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
  const [entry] = sim.result!.auth;
  const latest = await ctx.server.getLatestLedger();
  return authorizeEntry(entry, signer, validUntil ?? latest.sequence + 100, ctx.devnet.passphrase);
}

const channelPull = async (entry: xdr.SorobanAuthorizationEntry) =>
  prepareAndSign(ctx, await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }), channel);

describe('address credentials', () => {
  it('records ADDRESS credentials (nonce, expiration 0, void signature) for a non-source signer', async () => {
    const sim = await ctx.server.simulateTransaction(await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant)));
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
    const [entry] = sim.result!.auth;
    expect(entry.credentials.type).toBe('sorobanCredentialsAddress');
    const creds = xdr.expectUnionVariant(entry.credentials, 'sorobanCredentialsAddress').address;
    expect(creds.signatureExpirationLedger).toBe(0);
    expect(creds.signature.type).toBe('scvVoid');
    expect(creds.nonce).toBeGreaterThanOrEqual(0n);
    const rw = sim.transactionData.build().resources.footprint.readWrite;
    expect(rw.some((k) => k.type === 'contractData' && k.contractData.key.type === 'scvLedgerKeyNonce')).toBe(true);
  });

  it('records SOURCE_ACCOUNT credentials when the merchant is the transaction source', async () => {
    const sim = await ctx.server.simulateTransaction(await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)));
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
    expect(sim.result!.auth.map((a) => a.credentials.type)).toEqual(['sorobanCredentialsSourceAccount']);
  });

  it('a channel account submits pull_funds with the merchant-signed entry; the nonce cannot be replayed', async () => {
    const entry = await merchantSignedEntry(merchant);
    const res = await sendAndClose(ctx, await channelPull(entry));
    expect(res.status).toBe('SUCCESS');
    await control(ctx, 'advance-time', { seconds: 60 });
    await closeLedger(ctx);
    const replay = await ctx.server.simulateTransaction(await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }));
    expect(rpc.Api.isSimulationError(replay) && replay.error).toMatch(/^HostError: Error\(Auth, ExistingValue\)\n/);
    expect((replay as rpc.Api.SimulateTransactionErrorResponse).error).toContain('"nonce already exists for address"');
  });

  it('an expired signature is refused in simulation and fails on chain', async () => {
    await control(ctx, 'advance-time', { seconds: 60 });
    const latest = await ctx.server.getLatestLedger();
    const entry = await merchantSignedEntry(merchant, latest.sequence + 1);
    const tx = await channelPull(entry);
    // Delay inclusion past the signature's expiration ledger.
    await control(ctx, 'faults', { kind: 'delay', ledgers: 2 });
    const sent = await ctx.server.sendTransaction(tx);
    for (let i = 0; i < 3; i++) await closeLedger(ctx);
    const res = await ctx.server.getTransaction(sent.hash);
    expect(res.status).toBe('FAILED');
    const sim = await ctx.server.simulateTransaction(await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }));
    expect(rpc.Api.isSimulationError(sim) && sim.error).toMatch(/^HostError: Error\(Auth, InvalidInput\)\n/);
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain('"signature has expired"');
  });

  it('an entry signed by someone other than the merchant is refused', async () => {
    const entry = await merchantSignedEntry(user);
    const sim = await ctx.server.simulateTransaction(await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }));
    expect(rpc.Api.isSimulationError(sim) && sim.error).toMatch(/^HostError: Error\(Auth, InvalidInput\)\n/);
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain('"signer does not belong to account"');
  });

  it('an unsigned address entry fails on chain (Auth), seq and fee consumed', async () => {
    await control(ctx, 'advance-time', { seconds: 60 });
    await closeLedger(ctx);
    const prepared = await ctx.server.prepareTransaction(await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant)));
    prepared.sign(channel);
    const res = await sendAndClose(ctx, prepared);
    expect(res.status).toBe('FAILED');
  });
});
