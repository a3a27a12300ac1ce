// Address credentials: a channel account is the transaction source and the merchant
// signs only its SorobanAuthorizationEntry (authorizeEntry), as channel-account
// submitters do. Replay, expiry and a wrong signer are refused like on chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeEntry, hash, rpc, xdr, type Keypair } from '@stellar/stellar-sdk';
import { accountSignature, signaturePayload } from '../src/host/auth-credentials.ts';
import {
  buildCall,
  closeLedger,
  control,
  kp,
  prepareAndSign,
  sendAndClose,
  startTestDevnet,
  type Ctx,
} from './support/devnet.ts';
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
  const sim = await ctx.server.simulateTransaction(
    await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant)),
  );
  if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
  const [entry] = sim.result!.auth;
  const latest = await ctx.server.getLatestLedger();
  return authorizeEntry(entry, signer, validUntil ?? latest.sequence + 100, ctx.devnet.passphrase);
}

const networkId = () => hash(Buffer.from(ctx.devnet.passphrase));

const channelPull = async (entry: xdr.SorobanAuthorizationEntry) =>
  prepareAndSign(
    ctx,
    await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }),
    channel,
  );

/** simulateTransaction over raw JSON-RPC, so that useUpgradedAuth can be left out as SDKs ≤ 16.1 do. */
async function rawSimulate(tx: { toXDR(): string }, extra: Record<string, unknown> = {}) {
  const res = await fetch(ctx.devnet.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'simulateTransaction',
      params: { transaction: tx.toXDR(), ...extra },
    }),
  });
  const { result } = (await res.json()) as { result: { results: { auth: string[] }[] } };
  return result.results[0].auth.map((a) => xdr.SorobanAuthorizationEntry.fromXdr(a, 'base64'));
}

describe('address credentials', () => {
  it('records ADDRESS_V2 credentials (nonce, expiration 0, void signature) for a non-source signer when asked (SDK 17)', async () => {
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant)),
    );
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
    const [entry] = sim.result!.auth;
    expect(entry.credentials.type).toBe('sorobanCredentialsAddressV2');
    const creds = xdr.expectUnionVariant(entry.credentials, 'sorobanCredentialsAddressV2').addressV2;
    expect(creds.signatureExpirationLedger).toBe(0);
    expect(creds.signature.type).toBe('scvVoid');
    expect(creds.nonce).toBeGreaterThanOrEqual(0n);
    const rw = sim.transactionData.build().resources.footprint.readWrite;
    expect(rw.some((k) => k.type === 'contractData' && k.contractData.key.type === 'scvLedgerKeyNonce')).toBe(true);
  });

  it('records legacy ADDRESS credentials without useUpgradedAuth, and a legacy-signed entry is accepted', async () => {
    const call = await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant));
    expect((await rawSimulate(call))[0].credentials.type).toBe('sorobanCredentialsAddress');
    expect((await rawSimulate(call, { useUpgradedAuth: false }))[0].credentials.type).toBe('sorobanCredentialsAddress');
    expect((await rawSimulate(call, { useUpgradedAuth: true }))[0].credentials.type).toBe(
      'sorobanCredentialsAddressV2',
    );
    const [legacy] = await rawSimulate(call);
    const latest = await ctx.server.getLatestLedger();
    const signed = await authorizeEntry(legacy, merchant, latest.sequence + 100, ctx.devnet.passphrase);
    expect(signed.credentials.type).toBe('sorobanCredentialsAddress');
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [signed] }),
    );
    // Enforcing simulation verifies the signature over preimage 9 (ENVELOPE_TYPE_SOROBAN_AUTHORIZATION).
    expect(rpc.Api.isSimulationSuccess(sim)).toBe(true);
  });

  it('a v2 entry signed over the legacy preimage is refused: CAP-71 binds the address into the payload', async () => {
    const [v2] = await rawSimulate(await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant)), {
      useUpgradedAuth: true,
    });
    const creds = xdr.expectUnionVariant(v2.credentials, 'sorobanCredentialsAddressV2').addressV2;
    const latest = await ctx.server.getLatestLedger();
    const expiring = new xdr.SorobanAddressCredentials({ ...creds, signatureExpirationLedger: latest.sequence + 100 });
    const legacyPayload = signaturePayload(
      networkId(),
      xdr.SorobanCredentials.sorobanCredentialsAddress(expiring),
      v2.rootInvocation,
    );
    const forged = new xdr.SorobanAuthorizationEntry({
      credentials: xdr.SorobanCredentials.sorobanCredentialsAddressV2(
        new xdr.SorobanAddressCredentials({
          ...creds,
          signatureExpirationLedger: latest.sequence + 100,
          signature: accountSignature(merchant, legacyPayload),
        }),
      ),
      rootInvocation: v2.rootInvocation,
    });
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [forged] }),
    );
    expect(rpc.Api.isSimulationError(sim) && sim.error).toMatch(/^HostError: Error\(Auth, InvalidAction\)\n/);
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain('"failed ED25519 verification"');
  });

  it('records SOURCE_ACCOUNT credentials when the merchant is the transaction source', async () => {
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
    );
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
    expect(sim.result!.auth.map((a) => a.credentials.type)).toEqual(['sorobanCredentialsSourceAccount']);
  });

  it('a channel account submits pull_funds with the merchant-signed entry; the nonce cannot be replayed', async () => {
    const entry = await merchantSignedEntry(merchant);
    const res = await sendAndClose(ctx, await channelPull(entry));
    expect(res.status).toBe('SUCCESS');
    await control(ctx, 'advance-time', { seconds: 60 });
    await closeLedger(ctx);
    const replay = await ctx.server.simulateTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }),
    );
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
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }),
    );
    expect(rpc.Api.isSimulationError(sim) && sim.error).toMatch(/^HostError: Error\(Auth, InvalidInput\)\n/);
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toContain('"signature has expired"');
  });

  it('an entry signed by someone other than the merchant is refused', async () => {
    const entry = await merchantSignedEntry(user);
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant), { auth: [entry] }),
    );
    // auth.rs maybe_authorize_invocation re-raises the (recoverable) authentication error as
    // Error(Auth, InvalidAction) "failed account authentication with error".
    expect(rpc.Api.isSimulationError(sim) && sim.error).toMatch(/^HostError: Error\(Auth, InvalidAction\)\n/);
    const text = (sim as rpc.Api.SimulateTransactionErrorResponse).error;
    expect(text).toContain(
      `data:["failed account authentication with error", ${merchant.publicKey()}, Error(Auth, InvalidInput)]`,
    );
    expect(text).toContain('"signer does not belong to account"');
  });

  it('an unsigned address entry fails on chain (Auth), seq and fee consumed', async () => {
    await control(ctx, 'advance-time', { seconds: 60 });
    await closeLedger(ctx);
    const prepared = await ctx.server.prepareTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', pullArgs(user, merchant)),
    );
    prepared.sign(channel);
    const res = await sendAndClose(ctx, prepared);
    expect(res.status).toBe('FAILED');
  });
});
