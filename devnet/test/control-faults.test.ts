// The control API over HTTP: faults (drop, fail-next, delay, send), clock controls,
// snapshots, reset and the bookkeeping endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, rpc, scValToNative } from '@stellar/stellar-sdk';
import { startDevnet } from '../src/index.ts';
import {
  addr,
  buildCall,
  closeLedger,
  control,
  kp,
  opResultCode,
  prepareAndSign,
  startTestDevnet,
  view,
  type Ctx,
} from './support/devnet.ts';

let ctx: Ctx;
let token: string;
beforeAll(async () => {
  ctx = await startTestDevnet();
  token = ctx.devnet.contracts.token;
});
afterAll(() => ctx.devnet.close());

const balanceTx = async (i: number) => {
  const source = kp(ctx, i);
  return prepareAndSign(ctx, await buildCall(ctx, source, token, 'balance', [addr(source.publicKey())]), source);
};
type Listed = { hash: string; status: string; ledger?: number; function: string; contract: string };
const listed = async (hash: string) => (await control<Listed[]>(ctx, 'transactions')).find((t) => t.hash === hash);

describe('faults', () => {
  it('drop: PENDING, never included, NOT_FOUND for ever', async () => {
    await control(ctx, 'faults', { kind: 'drop' });
    const sent = await ctx.server.sendTransaction(await balanceTx(0));
    expect(sent.status).toBe('PENDING');
    await closeLedger(ctx);
    await closeLedger(ctx);
    expect((await ctx.server.getTransaction(sent.hash)).status).toBe('NOT_FOUND');
    expect((await listed(sent.hash))?.status).toBe('dropped');
    // The fault was for one transaction only, and a dropped one does not hold the source's slot.
    const next = await ctx.server.sendTransaction(await balanceTx(0));
    await closeLedger(ctx);
    expect((await ctx.server.getTransaction(next.hash)).status).toBe('SUCCESS');
  });

  it('fail-next: the next included invocations fail on chain with TRAPPED', async () => {
    await control(ctx, 'faults', { kind: 'fail-next', count: 2 });
    const a = await ctx.server.sendTransaction(await balanceTx(1));
    const b = await ctx.server.sendTransaction(await balanceTx(2));
    const c = await ctx.server.sendTransaction(await balanceTx(3));
    await closeLedger(ctx);
    const results = await Promise.all([a, b, c].map((s) => ctx.server.getTransaction(s.hash)));
    expect(results.map((r) => r.status)).toEqual(['FAILED', 'FAILED', 'SUCCESS']);
    const failed = results[0] as rpc.Api.GetFailedTransactionResponse;
    expect(opResultCode(failed.resultXdr)).toBe('invokeHostFunctionTrapped');
    expect((await listed(a.hash))?.status).toBe('failed');
  });

  it('delay: included only after n more ledgers', async () => {
    await control(ctx, 'faults', { kind: 'delay', ledgers: 2 });
    const sent = await ctx.server.sendTransaction(await balanceTx(1));
    const first = await closeLedger(ctx);
    expect((await ctx.server.getTransaction(sent.hash)).status).toBe('NOT_FOUND');
    await closeLedger(ctx);
    expect((await ctx.server.getTransaction(sent.hash)).status).toBe('NOT_FOUND');
    await closeLedger(ctx);
    const res = await ctx.server.getTransaction(sent.hash);
    expect(res.status).toBe('SUCCESS');
    expect((res as rpc.Api.GetSuccessfulTransactionResponse).ledger).toBe(first.sequence + 2);
  });

  it('send: TRY_AGAIN_LATER or ERROR without queueing, then back to normal after clear', async () => {
    await control(ctx, 'faults', { kind: 'send', status: 'TRY_AGAIN_LATER' });
    await control(ctx, 'faults', { kind: 'send', status: 'ERROR' });
    await control(ctx, 'faults', { kind: 'send', status: 'ERROR' });
    const tx = await balanceTx(4);
    expect((await ctx.server.sendTransaction(tx)).status).toBe('TRY_AGAIN_LATER');
    const err = await ctx.server.sendTransaction(tx);
    expect(err.status).toBe('ERROR');
    expect(err.errorResult).toBeDefined();
    await control(ctx, 'faults/clear');
    expect((await ctx.server.sendTransaction(tx)).status).toBe('PENDING');
    expect((await control<{ queued: number }>(ctx, 'state')).queued).toBe(1);
    await closeLedger(ctx);
  });

  it('rejects malformed fault requests with 400', async () => {
    await expect(control(ctx, 'faults', { kind: 'explode' })).rejects.toThrow(/400/);
    await expect(control(ctx, 'faults', { kind: 'delay' })).rejects.toThrow(/400/);
    await expect(control(ctx, 'faults', { kind: 'send', status: 'PENDING' })).rejects.toThrow(/400/);
  });
});

describe('clock and state controls', () => {
  it('close-ledger, advance-time and state', async () => {
    const s0 = await control<{ sequence: number; closeTime: number; paused: boolean; ledgerMs: number }>(ctx, 'state');
    expect(s0.ledgerMs).toBe(0);
    await control(ctx, 'advance-time', { seconds: 86_400 });
    const closed = await closeLedger(ctx);
    expect(closed.sequence).toBe(s0.sequence + 1);
    expect(closed.closeTime).toBeGreaterThanOrEqual(s0.closeTime + 86_400);
    const latest = await ctx.server.getLatestLedger();
    expect(latest.sequence).toBe(closed.sequence);
    expect(Number(latest.closeTime)).toBe(closed.closeTime);
  });

  it('fund creates an account with 10,000 XLM; mint credits tokens', async () => {
    const fresh = Keypair.random();
    const funded = await control<{ balance: string }>(ctx, 'fund', { address: fresh.publicKey() });
    expect(funded.balance).toBe('100000000000');
    const acc = await ctx.server.getAccount(fresh.publicKey());
    expect(acc.accountId()).toBe(fresh.publicKey());
    await control(ctx, 'mint', { to: fresh.publicKey(), amount: '12345' });
    expect(scValToNative(await view(ctx, token, 'balance', [addr(fresh.publicKey())]))).toBe(12345n);
    await expect(control(ctx, 'fund', { address: 'nope' })).rejects.toThrow(/400/);
    await expect(control(ctx, 'mint', { to: fresh.publicKey(), amount: '1.5' })).rejects.toThrow(/400/);
  });

  it('snapshot and restore bring back balances and sequence', async () => {
    const who = kp(ctx, 5);
    const { id } = await control<{ id: string }>(ctx, 'snapshot');
    const seqBefore = (await control<{ sequence: number }>(ctx, 'state')).sequence;
    await control(ctx, 'mint', { to: who.publicKey(), amount: '777' });
    await closeLedger(ctx);
    await control(ctx, 'restore', { id });
    expect((await control<{ sequence: number }>(ctx, 'state')).sequence).toBe(seqBefore);
    expect(scValToNative(await view(ctx, token, 'balance', [addr(who.publicKey())]))).toBe(0n);
    await expect(control(ctx, 'restore', { id: 'nope' })).rejects.toThrow(/400/);
  });

  it('rpc-calls counts JSON-RPC methods; reset returns to genesis and clears the counts', async () => {
    const calls = await control<Record<string, number>>(ctx, 'rpc-calls');
    expect(calls.sendTransaction).toBeGreaterThan(0);
    expect(calls.simulateTransaction).toBeGreaterThan(0);
    await control(ctx, 'mint', { to: kp(ctx, 0).publicKey(), amount: '5' });
    await control(ctx, 'reset');
    const state = await control<{ sequence: number; queued: number }>(ctx, 'state');
    expect(state.sequence).toBe(1);
    expect(await control(ctx, 'transactions')).toEqual([]);
    expect(await control(ctx, 'rpc-calls')).toEqual({});
    const acc = await ctx.server.getAccount(kp(ctx, 0).publicKey());
    expect(acc.sequenceNumber()).toBe((1n << 32n).toString());
  });
});

describe('ledger timer', () => {
  it('closes ledgers on its own and stops while paused', async () => {
    const d = await startDevnet({ port: 0, ledgerMs: 100, accounts: 1 });
    try {
      const server = new rpc.Server(d.rpcUrl, { allowHttp: true });
      await new Promise((r) => setTimeout(r, 350));
      expect((await server.getLatestLedger()).sequence).toBeGreaterThanOrEqual(3);
      await fetch(`${d.controlUrl}/pause`, { method: 'POST' });
      const paused = (await server.getLatestLedger()).sequence;
      await new Promise((r) => setTimeout(r, 300));
      expect((await server.getLatestLedger()).sequence).toBe(paused);
      const state = (await (await fetch(`${d.controlUrl}/state`)).json()) as { paused: boolean };
      expect(state.paused).toBe(true);
      await fetch(`${d.controlUrl}/resume`, { method: 'POST' });
      await new Promise((r) => setTimeout(r, 300));
      expect((await server.getLatestLedger()).sequence).toBeGreaterThan(paused);
    } finally {
      await d.close();
    }
  });
});
