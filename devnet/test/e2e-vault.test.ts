// The pull flow end to end through the real SDK client: approve, create_vault,
// pull_funds, balances and the funds_pulled event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scValToNative, xdr } from '@stellar/stellar-sdk';
import {
  addr, control, i128, invokeOk, kp, startTestDevnet, u32, u64, view, type Ctx,
} from './support/devnet.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet();
});
afterAll(() => ctx.devnet.close());

describe('vault pull flow', () => {
  it('getAccount reads a funded account', async () => {
    const acc = await ctx.server.getAccount(kp(ctx, 0).publicKey());
    expect(acc.sequenceNumber()).toBe((1n << 32n).toString());
  });

  it('approve, create_vault and pull_funds move the balance and emit funds_pulled', async () => {
    const { vault, token } = ctx.devnet.contracts;
    const user = kp(ctx, 0);
    const merchant = kp(ctx, 1);
    await control(ctx, 'mint', { to: user.publicKey(), amount: '1000000000' });
    const latest = await ctx.server.getLatestLedger();
    await invokeOk(ctx, user, token, 'approve', [addr(user.publicKey()), addr(vault), i128(500_000_000), u32(latest.sequence + 1000)]);
    await invokeOk(ctx, user, vault, 'create_vault', [
      addr(user.publicKey()), addr(merchant.publicKey()), addr(token), i128(100_000_000), u64(2_592_000),
    ]);
    const res = await invokeOk(ctx, merchant, vault, 'pull_funds', [addr(user.publicKey()), addr(merchant.publicKey())]);
    expect(res.status).toBe('SUCCESS');
    expect(res.returnValue?.switch()).toEqual(xdr.ScValType.scvVoid());
    const events = res.events.contractEventsXdr[0];
    const pulled = events.find((e) => scValToNative(e.body().v0().topics()[0]) === 'funds_pulled');
    expect(pulled).toBeDefined();

    expect(scValToNative(await view(ctx, token, 'balance', [addr(user.publicKey())]))).toBe(900_000_000n);
    expect(scValToNative(await view(ctx, token, 'balance', [addr(merchant.publicKey())]))).toBe(100_000_000n);
    const txs = await control<{ function: string; status: string }[]>(ctx, 'transactions');
    expect(txs.filter((t) => t.function === 'pull_funds')).toHaveLength(1);
  });
});
