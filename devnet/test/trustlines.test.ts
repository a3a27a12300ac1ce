// G-account holders of the USDC SAC hold real TrustLineEntry ledger entries, and the SAC fails as
// rs-soroban-env balance.rs does: #13 for a missing trustline, #10 [min, new, max] outside the
// trustline's range (either side), #11 for a deauthorized one, in the SAC's order of checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, Keypair, rpc, scValToNative, xdr, type Transaction } from '@stellar/stellar-sdk';
import {
  addr,
  buildCall,
  closeLedger,
  control,
  i128,
  invokeOk,
  kp,
  opResultCode,
  prepareAndSign,
  startTestDevnet,
  view,
  type Ctx,
} from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
let token: string;
let vault: string;
let usdc: Asset;
beforeAll(async () => {
  ctx = await startTestDevnet(4);
  ({ token, vault } = ctx.devnet.contracts);
  usdc = new Asset('USDC', ctx.devnet.tokenAdmin.publicKey);
});
afterAll(() => ctx.devnet.close());

const I64_MAX = 9223372036854775807n;

type TrustlineAnswer = {
  account: string;
  asset: string;
  trustline: { balance: string; limit: string; flags: number; authorized: boolean } | null;
};

const trustlineKey = (account: string) =>
  xdr.LedgerKey.trustline(
    new xdr.LedgerKeyTrustLine({
      accountId: Keypair.fromPublicKey(account).xdrAccountId(),
      asset: usdc.toTrustLineXDRObject(),
    }),
  );

/** The holder's trustline as getLedgerEntries serves it (what the service reads). */
async function trustline(account: string) {
  const res = await ctx.server.getLedgerEntries(trustlineKey(account));
  const e = res.entries[0];
  if (!e) return undefined;
  const tl = xdr.expectUnionVariant(e.val, 'trustline').trustLine;
  return { balance: tl.balance, limit: tl.limit, flags: tl.flags, liveUntil: e.liveUntilLedgerSeq };
}

async function subEntries(account: string): Promise<number> {
  const key = xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrAccountId() }),
  );
  const res = await ctx.server.getLedgerEntries(key);
  return xdr.expectUnionVariant(res.entries[0].val, 'account').account.numSubEntries;
}

async function newAccount(body: Record<string, unknown> = {}): Promise<Keypair> {
  const k = Keypair.random();
  await control(ctx, 'fund', { address: k.publicKey(), ...body });
  return k;
}

async function simError(source: Keypair, contract: string, fn: string, args: xdr.ScVal[]) {
  const sim = await ctx.server.simulateTransaction(await buildCall(ctx, source, contract, fn, args));
  if (!rpc.Api.isSimulationError(sim)) throw new Error(`${fn} simulated successfully`);
  return sim.error;
}

/** The token's own error diagnostic line of a nested failure (line 2, newest first). */
const tokenErrorLine = (error: string) => error.split('\n').find((l) => l.includes(`contract:${token}, topics:[error`));

async function pullSetup(opts: { merchant?: Keypair; balance?: bigint; amount?: bigint } = {}) {
  const user = await newAccount();
  const merchant = opts.merchant ?? (await newAccount());
  await fundAndApprove(ctx, user, opts.balance ?? 1000n, 10_000n);
  await createVault(ctx, user, merchant, { amount: opts.amount ?? 100n, interval: 60n });
  return { user, merchant };
}

describe('trustline entries', () => {
  it('test accounts hold an authorized, unlimited USDC trustline; balance() is its balance', async () => {
    const holder = kp(ctx, 0);
    const before = await trustline(holder.publicKey());
    expect(before).toEqual({ balance: 0n, limit: I64_MAX, flags: 1, liveUntil: undefined });
    expect(await subEntries(holder.publicKey())).toBe(1);
    await control(ctx, 'mint', { to: holder.publicKey(), amount: '1234' });
    expect((await trustline(holder.publicKey()))?.balance).toBe(1234n);
    expect(scValToNative(await view(ctx, token, 'balance', [addr(holder.publicKey())]))).toBe(1234n);
    expect(scValToNative(await view(ctx, token, 'name', []))).toBe(`USDC:${ctx.devnet.tokenAdmin.publicKey}`);
    expect(scValToNative(await view(ctx, token, 'authorized', [addr(holder.publicKey())]))).toBe(true);
  });

  it('the issuer has no trustline, an i64::MAX balance, and cannot be minted to', async () => {
    const issuer = ctx.devnet.tokenAdmin.publicKey;
    expect(await trustline(issuer)).toBeUndefined();
    expect(scValToNative(await view(ctx, token, 'balance', [addr(issuer)]))).toBe(I64_MAX);
    await expect(control(ctx, 'mint', { to: issuer, amount: '1' })).rejects.toThrow(
      /Error\(Contract, #2\) \\"operation invalid on issuer\\"/,
    );
  });

  it('a pull moves trustline balances, and the SAC changes are trustline entries in the meta', async () => {
    const { user, merchant } = await pullSetup();
    const res = await invokeOk(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect((await trustline(user.publicKey()))?.balance).toBe(900n);
    expect((await trustline(merchant.publicKey()))?.balance).toBe(100n);
    const meta = xdr.expectUnionVariant(res.resultMetaXdr, 'v4').v4;
    const updated = meta.operations[0].changes
      .filter((c) => c.type === 'ledgerEntryUpdated')
      .map((c) => xdr.expectUnionVariant(c, 'ledgerEntryUpdated').updated.data.type);
    expect(updated.filter((t) => t === 'trustline')).toHaveLength(2);
  });
});

describe('controls', () => {
  it('fund: a trustline by default, none with trustline:false, a chosen limit', async () => {
    const plain = await newAccount();
    expect(await trustline(plain.publicKey())).toMatchObject({ balance: 0n, limit: I64_MAX, flags: 1 });
    const none = Keypair.random();
    const answer = await control<{ trustline: unknown }>(ctx, 'fund', { address: none.publicKey(), trustline: false });
    expect(answer.trustline).toBeNull();
    expect(await trustline(none.publicKey())).toBeUndefined();
    expect(await subEntries(none.publicKey())).toBe(0);
    const limited = Keypair.random();
    const l = await control<{ trustline: { limit: string } }>(ctx, 'fund', {
      address: limited.publicKey(),
      limit: '500',
    });
    expect(l.trustline.limit).toBe('500');
    expect((await trustline(limited.publicKey()))?.limit).toBe(500n);
    await expect(control(ctx, 'fund', { address: limited.publicKey(), trustline: 'yes' })).rejects.toThrow(
      /trustline must be true or false/,
    );
  });

  it('mint to a G account without trustline fails as the SAC does (#13)', async () => {
    const none = await newAccount({ trustline: false });
    await expect(control(ctx, 'mint', { to: none.publicKey(), amount: '5' })).rejects.toThrow(
      `mint failed: Error(Contract, #13) [\\"trustline entry is missing for account\\", ${none.publicKey()}]`,
    );
  });

  it('trustline: create, limit, deauthorize, reauthorize, remove — by ChangeTrust rules', async () => {
    const k = await newAccount({ trustline: false });
    const a = k.publicKey();
    const created = await control<TrustlineAnswer>(ctx, 'trustline', { account: a, limit: '1000' });
    expect(created).toEqual({
      account: a,
      asset: `USDC:${ctx.devnet.tokenAdmin.publicKey}`,
      trustline: { balance: '0', limit: '1000', flags: 1, authorized: true },
    });
    expect(await subEntries(a)).toBe(1);
    await control(ctx, 'mint', { to: a, amount: '600' });
    await expect(control(ctx, 'trustline', { account: a, limit: '599' })).rejects.toThrow(/CHANGE_TRUST_INVALID_LIMIT/);
    expect((await control<TrustlineAnswer>(ctx, 'trustline', { account: a, limit: '600' })).trustline?.limit).toBe(
      '600',
    );
    // Deauthorizing keeps AUTHORIZED_TO_MAINTAIN_LIABILITIES (balance.rs set_trustline_authorization).
    expect((await control<TrustlineAnswer>(ctx, 'trustline', { account: a, authorized: false })).trustline?.flags).toBe(
      2,
    );
    expect(scValToNative(await view(ctx, token, 'authorized', [addr(a)]))).toBe(false);
    expect((await control<TrustlineAnswer>(ctx, 'trustline', { account: a, authorized: true })).trustline?.flags).toBe(
      1,
    );
    await expect(control(ctx, 'trustline', { account: a, remove: true })).rejects.toThrow(/holds 600 units/);
    await invokeOk(ctx, k, token, 'transfer', [addr(a), addr(ctx.devnet.tokenAdmin.publicKey), i128(600)]);
    expect((await control<TrustlineAnswer>(ctx, 'trustline', { account: a, remove: true })).trustline).toBeNull();
    expect(await trustline(a)).toBeUndefined();
    expect(await subEntries(a)).toBe(0);
    // Created unauthorized: no flags, as ChangeTrust under AUTH_REQUIRED.
    expect((await control<TrustlineAnswer>(ctx, 'trustline', { account: a, authorized: false })).trustline?.flags).toBe(
      0,
    );
    await expect(control(ctx, 'trustline', { account: ctx.devnet.tokenAdmin.publicKey })).rejects.toThrow(
      /CHANGE_TRUST_SELF_NOT_ALLOWED/,
    );
    await expect(control(ctx, 'trustline', { account: Keypair.random().publicKey() })).rejects.toThrow(/fund it first/);
    await expect(control(ctx, 'trustline', { account: a, limit: '0' })).rejects.toThrow(/limit must be/);
  });

  it("the SAC's own trust (CAP-73) creates the caller's trustline through sendTransaction", async () => {
    const k = await newAccount({ trustline: false });
    await invokeOk(ctx, k, token, 'trust', [addr(k.publicKey())]);
    expect(await trustline(k.publicKey())).toMatchObject({ balance: 0n, limit: I64_MAX, flags: 1 });
    expect(await subEntries(k.publicKey())).toBe(1);
    await invokeOk(ctx, k, token, 'trust', [addr(k.publicKey())]); // a no-op now
    expect(await subEntries(k.publicKey())).toBe(1);
  });

  it("the admin's set_authorized(false) deauthorizes a holder (the issuer is AUTH_REVOCABLE)", async () => {
    const admin = Keypair.fromSecret(ctx.devnet.tokenAdmin.secret);
    const k = await newAccount();
    const res = await invokeOk(ctx, admin, token, 'set_authorized', [addr(k.publicKey()), xdr.ScVal.scvBool(false)]);
    expect(res.events.contractEventsXdr[0].map((e) => e.body.v0.topics.map(scValToNative))).toEqual([
      ['set_authorized', k.publicKey(), `USDC:${admin.publicKey()}`],
    ]);
    expect((await trustline(k.publicKey()))?.flags).toBe(2);
  });
});

describe('SAC errors on either side of a pull, as balance.rs raises them', () => {
  it('merchant without trustline: #13 with the merchant’s account', async () => {
    const merchant = await newAccount({ trustline: false });
    const { user } = await pullSetup({ merchant });
    const error = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(error.split('\n')[0]).toBe('HostError: Error(Contract, #13)');
    expect(tokenErrorLine(error)).toBe(
      `   2: [Failed Diagnostic Event (not emitted)] contract:${token}, topics:[error, Error(Contract, #13)], data:["trustline entry is missing for account", ${merchant.publicKey()}]`,
    );
  });

  it('merchant over its limit: #10 [0, new, limit] on the receiving side', async () => {
    const merchant = await newAccount({ limit: '150' });
    const { user } = await pullSetup({ merchant });
    await control(ctx, 'mint', { to: merchant.publicKey(), amount: '100' });
    const error = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(error.split('\n')[0]).toBe('HostError: Error(Contract, #10)');
    expect(tokenErrorLine(error)).toContain('data:["resulting balance is not within the allowed range", 0, 200, 150]');
  });

  it('subscriber short: #10 [0, new < 0, max] on the sending side', async () => {
    const { user, merchant } = await pullSetup({ balance: 30n, amount: 100n });
    const error = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(tokenErrorLine(error)).toContain(
      `data:["resulting balance is not within the allowed range", 0, -70, ${I64_MAX}]`,
    );
  });

  it('merchant deauthorized: #11 "balance is deauthorized" with no argument', async () => {
    const merchant = await newAccount();
    const { user } = await pullSetup({ merchant });
    await control(ctx, 'trustline', { account: merchant.publicKey(), authorized: false });
    const error = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(error.split('\n')[0]).toBe('HostError: Error(Contract, #11)');
    expect(tokenErrorLine(error)).toContain('topics:[error, Error(Contract, #11)], data:"balance is deauthorized"');
  });

  it('the sending side is checked first: subscriber deauthorized and merchant without trustline → #11', async () => {
    const merchant = await newAccount({ trustline: false });
    const { user } = await pullSetup({ merchant });
    await control(ctx, 'trustline', { account: user.publicKey(), authorized: false });
    expect((await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant))).split('\n')[0]).toBe(
      'HostError: Error(Contract, #11)',
    );
    // Allowance before balance: with no allowance left the subscriber's #9 comes first.
    await control(ctx, 'trustline', { account: user.publicKey(), authorized: true });
    await invokeOk(ctx, user, token, 'approve', [addr(user.publicKey()), addr(vault), i128(0), xdr.ScVal.scvU32(0)]);
    expect((await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant))).split('\n')[0]).toBe(
      'HostError: Error(Contract, #9)',
    );
  });

  it('a pull prepared while the merchant had a trustline fails on chain (#13 in the diagnostics) once it is gone', async () => {
    const merchant = await newAccount();
    const { user } = await pullSetup({ merchant });
    const tx: Transaction = await prepareAndSign(
      ctx,
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
      merchant,
    );
    await control(ctx, 'trustline', { account: merchant.publicKey(), remove: true });
    const sent = await ctx.server.sendTransaction(tx);
    expect(sent.status).toBe('PENDING');
    await closeLedger(ctx);
    const res = await ctx.server.getTransaction(sent.hash);
    expect(res.status).toBe('FAILED');
    if (res.status !== 'FAILED') return;
    expect(opResultCode(res.resultXdr)).toBe('invokeHostFunctionTrapped');
    const errors = (res.diagnosticEventsXdr ?? [])
      .map((d) => d.event)
      .filter((e) => e.contractId && scValToNative(e.body.v0.topics[0]) === 'error');
    const data = errors.map((e) => scValToNative(e.body.v0.data));
    expect(data).toContainEqual(['trustline entry is missing for account', merchant.publicKey()]);
    expect((await trustline(user.publicKey()))?.balance).toBe(1000n);
  });
});
