// getTransactions as stellar-rpc serves it (methods/get_transactions.go): the transactions of a
// ledger range in application order, paged by TOID cursors, each item what getTransaction serves
// (createdAt a number), parsed by the unmodified SDK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLedger, control, startTestDevnet, type Ctx } from './support/devnet.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet(2);
});
afterAll(() => ctx.devnet.close());

async function call(method: string, params?: unknown) {
  const res = await fetch(ctx.devnet.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: { code: number; message: string } };
}

describe('getTransactions', () => {
  it('serves a ledger range in application order, paged by cursor without gaps or repeats', async () => {
    const first = (await closeLedger(ctx)).sequence + 1;
    const { transactions: sent } = await control<{ transactions: { hash: string; ledger: number }[] }>(ctx, 'traffic', {
      count: 7,
      ledgers: 2,
    });
    await closeLedger(ctx);
    await closeLedger(ctx);
    const empty = (await closeLedger(ctx)).sequence; // a ledger without transactions

    const all = (await call('getTransactions', { startLedger: first, pagination: { limit: 200 } })).result;
    expect(all.transactions).toHaveLength(7);
    expect(new Set(all.transactions.map((t: any) => t.txHash))).toEqual(new Set(sent.map((s) => s.hash)));
    // Application order within each ledger, ledgers ascending.
    const keys = all.transactions.map((t: any) => [t.ledger, t.applicationOrder]);
    expect(keys).toEqual([...keys].sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1]));
    expect(all).toMatchObject({
      latestLedger: empty,
      latestLedgerCloseTimestamp: expect.any(Number),
      oldestLedger: expect.any(Number),
      oldestLedgerCloseTimestamp: expect.any(Number),
      // Ran to the latest ledger, which is empty: TOID(latest, 0, 1).
      cursor: ((BigInt(empty) << 32n) | 1n).toString(),
    });
    // Each item is getTransaction's answer for that hash, createdAt as a number.
    for (const t of all.transactions) {
      const one = (await call('getTransaction', { hash: t.txHash })).result;
      expect(t).toEqual({
        status: one.status,
        txHash: one.txHash,
        applicationOrder: one.applicationOrder,
        feeBump: one.feeBump,
        envelopeXdr: one.envelopeXdr,
        resultXdr: one.resultXdr,
        resultMetaXdr: one.resultMetaXdr,
        ...(one.diagnosticEventsXdr && { diagnosticEventsXdr: one.diagnosticEventsXdr }),
        events: one.events,
        ledger: one.ledger,
        createdAt: Number(one.createdAt),
      });
    }

    // Pages of 3: the cursor is the TOID of the last item; the next page starts right after it.
    const paged: any[] = [];
    let page = (await call('getTransactions', { startLedger: first, pagination: { limit: 3 } })).result;
    for (;;) {
      paged.push(...page.transactions);
      if (page.transactions.length < 3) break;
      const lastTx = page.transactions.at(-1);
      expect(page.cursor).toBe(
        ((BigInt(lastTx.ledger) << 32n) | (BigInt(lastTx.applicationOrder) << 12n) | 1n).toString(),
      );
      page = (await call('getTransactions', { pagination: { cursor: page.cursor, limit: 3 } })).result;
    }
    expect(paged.map((t) => t.txHash)).toEqual(all.transactions.map((t: any) => t.txHash));
  });

  it('is parsed by the SDK (rpc.Server.getTransactions)', async () => {
    const { transactions } = await control<{ transactions: { hash: string; ledger: number }[] }>(ctx, 'traffic', {
      count: 2,
      ledgers: 1,
    });
    await closeLedger(ctx);
    const res = await ctx.server.getTransactions({ startLedger: transactions[0].ledger, pagination: { limit: 10 } });
    expect(res.transactions.map((t) => t.txHash).sort()).toEqual(transactions.map((t) => t.hash).sort());
    expect(res.transactions.every((t) => t.status === 'SUCCESS' || t.status === 'FAILED')).toBe(true);
  });

  it('refuses what stellar-rpc refuses', async () => {
    const latest = (await call('getLatestLedger')).result.sequence;
    expect((await call('getTransactions', { startLedger: latest + 5 })).error).toEqual({
      code: -32600,
      message: expect.stringMatching(
        /^start ledger must be between the oldest ledger: \d+ and the latest ledger: \d+ for this rpc instance$/,
      ),
    });
    expect((await call('getTransactions', { startLedger: latest, pagination: { cursor: '123' } })).error).toEqual({
      code: -32600,
      message: 'startLedger and cursor cannot both be set',
    });
    expect((await call('getTransactions', { startLedger: latest, pagination: { limit: 201 } })).error).toEqual({
      code: -32600,
      message: 'limit must not exceed 200',
    });
  });
});
