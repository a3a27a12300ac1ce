// The pull flow end to end through the real SDK client: approve, create_vault,
// pull_funds, balances, the funds_pulled event, the interval rule and the layout
// of the vault's storage as get_vault and getLedgerEntries show it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, rpc, scValToNative, xdr } from '@stellar/stellar-sdk';
import { addr, buildCall, control, invokeOk, kp, startTestDevnet, view, type Ctx } from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet();
});
afterAll(() => ctx.devnet.close());

const balance = async (who: string) =>
  scValToNative(await view(ctx, ctx.devnet.contracts.token, 'balance', [addr(who)]));

describe('vault pull flow', () => {
  it('getAccount reads a funded account', async () => {
    const acc = await ctx.server.getAccount(kp(ctx, 0).publicKey());
    expect(acc.sequenceNumber()).toBe((1n << 32n).toString());
  });

  it('token metadata matches a SAC: decimals 7, name CODE:ISSUER, symbol', async () => {
    const { token } = ctx.devnet.contracts;
    expect(scValToNative(await view(ctx, token, 'decimals', []))).toBe(7);
    expect(scValToNative(await view(ctx, token, 'symbol', []))).toBe('USDC');
    expect(scValToNative(await view(ctx, token, 'name', []))).toBe(`USDC:${ctx.devnet.tokenAdmin.publicKey}`);
  });

  it('pulls once at once, refuses an early pull, and pulls again after the interval', async () => {
    const { vault } = ctx.devnet.contracts;
    const user = kp(ctx, 0);
    const merchant = kp(ctx, 1);
    await fundAndApprove(ctx, user, 1_000_000_000n, 500_000_000n);
    expect(
      scValToNative(await view(ctx, ctx.devnet.contracts.token, 'allowance', [addr(user.publicKey()), addr(vault)])),
    ).toBe(500_000_000n);
    await createVault(ctx, user, merchant, { amount: 100_000_000n, interval: 3600n });

    const res = await invokeOk(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(res.returnValue?.type).toBe('scvVoid');
    const pulled = res.events.contractEventsXdr[0].find((e) => scValToNative(e.body.v0.topics[0]) === 'funds_pulled')!;
    expect(pulled.body.v0.topics.slice(1).map(scValToNative)).toEqual([user.publicKey(), merchant.publicKey()]);
    expect(scValToNative(pulled.body.v0.data)).toEqual([100_000_000n, BigInt(res.createdAt)]);
    expect(await balance(user.publicKey())).toBe(900_000_000n);
    expect(await balance(merchant.publicKey())).toBe(100_000_000n);

    const early = await ctx.server.simulateTransaction(
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
    );
    expect(rpc.Api.isSimulationError(early) && early.error).toMatch(/^HostError: Error\(WasmVm, InvalidAction\)\n/);

    await control(ctx, 'advance-time', { seconds: 3600 });
    await control(ctx, 'close-ledger');
    await invokeOk(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(await balance(merchant.publicKey())).toBe(200_000_000n);

    const txs = await control<{ function: string; status: string; args: string[] }[]>(ctx, 'transactions');
    const pulls = txs.filter((t) => t.function === 'pull_funds');
    expect(pulls.map((t) => t.status)).toEqual(['success', 'success']);
    expect(pulls[0].args).toEqual([user.publicKey(), merchant.publicKey()]);
  });

  it('get_vault and the VaultKey ledger entry decode to the #[contracttype] layout', async () => {
    const { vault, token } = ctx.devnet.contracts;
    const user = kp(ctx, 0);
    const merchant = kp(ctx, 1);
    const fromView = await view(ctx, vault, 'get_vault', pullArgs(user, merchant));
    const fields = xdr.expectUnionVariant(fromView, 'scvMap').map ?? [];
    const keys = fields.map((e) => xdr.expectUnionVariant(e.key, 'scvSymbol').sym.toString());
    expect(keys).toEqual(['amount_per_interval', 'interval_seconds', 'last_pull_timestamp', 'token']);
    const native = scValToNative(fromView);
    expect(native.amount_per_interval).toBe(100_000_000n);
    expect(native.interval_seconds).toBe(3600n);
    expect(native.token).toBe(token);
    expect(fields[0].val.type).toBe('scvI128');
    expect(fields[1].val.type).toBe('scvU64');

    // The service builds this key itself: Map{merchant, user} (sorted), persistent, on the vault.
    const vaultKey = xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('merchant'), val: addr(merchant.publicKey()) }),
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('user'), val: addr(user.publicKey()) }),
    ]);
    const entry = await ctx.server.getContractData(vault, vaultKey, rpc.Durability.Persistent);
    const data = xdr.expectUnionVariant(entry.val, 'contractData').contractData;
    expect(data.val.toXdr('base64')).toBe(fromView.toXdr('base64'));
    expect(entry.liveUntilLedgerSeq).toBeGreaterThan(entry.lastModifiedLedgerSeq!);
    expect(Address.fromScAddress(data.contract).toString()).toBe(vault);

    const missing = await view(ctx, vault, 'get_vault', pullArgs(merchant, user));
    expect(missing.type).toBe('scvVoid');
  });

  it('getEvents serves funds_pulled events filtered by contract and topic', async () => {
    const { vault } = ctx.devnet.contracts;
    const res = await ctx.server.getEvents({
      startLedger: 1,
      filters: [
        {
          type: 'contract',
          contractIds: [vault],
          topics: [[xdr.ScVal.scvSymbol('funds_pulled').toXdr('base64'), '*', '*']],
        },
      ],
    });
    expect(res.events).toHaveLength(2);
    expect(res.events[0].contractId?.contractId()).toBe(vault);
    expect(scValToNative(res.events[0].topic[0])).toBe('funds_pulled');
    const next = await ctx.server.getEvents({ cursor: res.events[0].id, filters: [{ contractIds: [vault] }] });
    expect(next.events).toHaveLength(1);
  });
});
