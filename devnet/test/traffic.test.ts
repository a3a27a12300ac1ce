// POST /control/traffic: other accounts' transfers in the coming ledgers, one per credential
// arm in turn, decoded through the unmodified SDK; they leave the transactions under test alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type rpc, xdr } from '@stellar/stellar-sdk';
import type { TrafficTx } from '../src/index.ts';
import {
  buildCall,
  closeLedger,
  control,
  invokeOk,
  kp,
  prepareAndSign,
  startTestDevnet,
  type Ctx,
} from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet();
});
afterAll(() => ctx.devnet.close());

const credentialsOf = async (hash: string) => {
  const res = await ctx.server.getTransaction(hash);
  if (res.status === 'NOT_FOUND') throw new Error(`${hash} not found`);
  const op = xdr.expectUnionVariant(res.envelopeXdr, 'envelopeTypeTx').v1.tx.operations[0];
  return { res, auth: xdr.expectUnionVariant(op.body, 'invokeHostFunction').invokeHostFunctionOp.auth };
};

describe('traffic', () => {
  it('spreads transactions signed with every credential arm over the next ledgers', async () => {
    const start = (await ctx.server.getLatestLedger()).sequence;
    const { transactions } = await control<{ transactions: TrafficTx[] }>(ctx, 'traffic', { count: 8 });
    expect(transactions.map((t) => t.credentials)).toEqual([
      'sourceAccount',
      'address',
      'addressV2',
      'addressWithDelegates',
      'sourceAccount',
      'address',
      'addressV2',
      'addressWithDelegates',
    ]);
    expect(transactions.map((t) => t.ledger)).toEqual([1, 1, 1, 1, 2, 2, 2, 2].map((n) => start + n));
    await closeLedger(ctx);
    await closeLedger(ctx);

    const arms: Record<string, string> = {
      sourceAccount: 'sorobanCredentialsSourceAccount',
      address: 'sorobanCredentialsAddress',
      addressV2: 'sorobanCredentialsAddressV2',
      addressWithDelegates: 'sorobanCredentialsAddressWithDelegates',
    };
    for (const t of transactions) {
      const { res, auth } = await credentialsOf(t.hash);
      expect(res.status).toBe(t.expected);
      expect(res.ledger).toBe(t.ledger);
      expect(auth.map((a) => a.credentials.type)).toEqual([arms[t.credentials]]);
      if (t.credentials === 'addressWithDelegates') {
        const creds = xdr.expectUnionVariant(
          auth[0].credentials,
          'sorobanCredentialsAddressWithDelegates',
        ).addressWithDelegates;
        expect(creds.delegates).toHaveLength(1);
        expect(t.from).toMatch(/^C/);
        // A custom account the devnet does not run: the authentication fails, the transaction is included.
        expect((res as rpc.Api.GetFailedTransactionResponse).diagnosticEventsXdr?.length).toBeGreaterThan(0);
      }
    }
    // Each ledger's meta holds its four transactions.
    const page = await ctx.server.getLedgers({ startLedger: start + 1, pagination: { limit: 2 } });
    for (const l of page.ledgers) {
      const lcm = xdr.expectUnionVariant(l.metadataXdr, 'v2').v2;
      expect(lcm.txProcessing).toHaveLength(4);
    }
    // Not listed among the transactions accepted by sendTransaction.
    expect(await control<unknown[]>(ctx, 'transactions')).toEqual([]);
  });

  it('runs beside a pull: the pull succeeds, faults stay with the transactions under test', async () => {
    const { vault } = ctx.devnet.contracts;
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    await fundAndApprove(ctx, user, 10_000n, 10_000n);
    await createVault(ctx, user, merchant, { amount: 100n, interval: 60n });
    const { transactions } = await control<{ transactions: TrafficTx[] }>(ctx, 'traffic', { count: 4, ledgers: 1 });
    await control(ctx, 'faults', { kind: 'fail-next' });
    const pull = await prepareAndSign(
      ctx,
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
      merchant,
    );
    const sent = await ctx.server.sendTransaction(pull);
    await closeLedger(ctx);
    expect((await ctx.server.getTransaction(sent.hash)).status).toBe('FAILED');
    const statuses = await Promise.all(transactions.map(async (t) => (await ctx.server.getTransaction(t.hash)).status));
    expect(statuses).toEqual(transactions.map((t) => t.expected));
    const lcm = xdr.expectUnionVariant((await ctx.server.getLatestLedger()).metadataXdr, 'v2').v2;
    expect(lcm.txProcessing).toHaveLength(5);
    await control(ctx, 'traffic', { count: 3 });
    const ok = await invokeOk(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(ok.status).toBe('SUCCESS');
  });

  it('typed method and validation', async () => {
    const { transactions } = ctx.devnet.control.traffic({ count: 2, ledgers: 2 });
    expect(transactions.map((t) => t.ledger)).toEqual([transactions[0].ledger, transactions[0].ledger + 1]);
    await expect(control(ctx, 'traffic', { count: 0 })).rejects.toThrow(/400/);
    await expect(control(ctx, 'traffic', { count: 2, ledgers: 0 })).rejects.toThrow(/400/);
    await closeLedger(ctx);
    await closeLedger(ctx);
  });
});
