// Fee-bump envelopes through the SDK, as stellar-core accepts and applies them
// (FeeBumpTransactionFrame) and stellar-rpc reports them (db/transaction.go): the outer hash
// answers sendTransaction, getTransaction finds the transaction by the outer and the inner hash
// with feeBump true, the fee source pays, the inner source's sequence is used, results wrap the
// inner one (txFEE_BUMP_INNER_SUCCESS / _FAILED), and the refusals name the outer or inner problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FeeBumpTransaction,
  Keypair,
  type rpc,
  scValToNative,
  Transaction,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import {
  addr,
  buildCall,
  closeLedger,
  control,
  kp,
  prepareAndSign,
  startTestDevnet,
  type Ctx,
} from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet(8);
});
afterAll(() => ctx.devnet.close());

const hex = (tx: { hash(): Uint8Array }) => Buffer.from(tx.hash()).toString('hex');
const errorCode = (sent: rpc.Api.SendTransactionResponse) => sent.errorResult?.result.type;

function bump(inner: Transaction, payer: Keypair, baseFee = 100): FeeBumpTransaction {
  const fb = TransactionBuilder.buildFeeBumpTransaction(payer, String(baseFee), inner, ctx.devnet.passphrase);
  fb.sign(payer);
  return fb;
}

/** A fee bump with an explicit outer fee (the SDK builder refuses bids it knows core refuses). */
function bumpWithFee(inner: Transaction, payer: Keypair, fee: bigint): FeeBumpTransaction {
  const innerEnv = xdr.expectUnionVariant(inner.toEnvelope(), 'envelopeTypeTx').v1;
  const env = xdr.TransactionEnvelope.envelopeTypeTxFeeBump(
    new xdr.FeeBumpTransactionEnvelope({
      tx: new xdr.FeeBumpTransaction({
        feeSource: payer.xdrMuxedAccount(),
        fee,
        innerTx: xdr.FeeBumpTransactionInnerTx.envelopeTypeTx(innerEnv),
        ext: xdr.FeeBumpTransactionExt.v0(),
      }),
      signatures: [],
    }),
  );
  const fb = new FeeBumpTransaction(env, ctx.devnet.passphrase);
  fb.sign(payer);
  return fb;
}

const xlm = async (who: Keypair) => {
  const { entries } = await ctx.server.getLedgerEntries(
    xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: who.xdrAccountId() })),
  );
  return xdr.expectUnionVariant(entries[0].val, 'account').account.balance;
};
const resourceFeeOf = (tx: Transaction) =>
  xdr.expectUnionVariant(xdr.expectUnionVariant(tx.toEnvelope(), 'envelopeTypeTx').v1.tx.ext, 'sorobanData').sorobanData
    .resourceFee;

describe('a fee-bumped pull', () => {
  it('is answered with the outer hash, found by both hashes with feeBump true, paid by the fee source', async () => {
    const [user, merchant, payer] = [kp(ctx, 0), kp(ctx, 1), kp(ctx, 2)];
    const { vault } = ctx.devnet.contracts;
    await fundAndApprove(ctx, user, 1_000_000n, 1_000_000n);
    await createVault(ctx, user, merchant, { amount: 1000n, interval: 60n });
    const inner = await prepareAndSign(
      ctx,
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
      merchant,
    );
    const outer = bump(inner, payer, 300);
    const [merchantXlm, payerXlm] = [await xlm(merchant), await xlm(payer)];
    const seq = (await ctx.server.getAccount(merchant.publicKey())).sequenceNumber();

    const sent = await ctx.server.sendTransaction(outer);
    expect(sent.status).toBe('PENDING');
    expect(sent.hash).toBe(hex(outer));
    // The inner transaction alone is the queued one's duplicate (TransactionQueue isDuplicateTx).
    expect((await ctx.server.sendTransaction(inner)).status).toBe('DUPLICATE');
    const closed = await closeLedger(ctx);

    const byOuter = (await ctx.server.getTransaction(hex(outer))) as rpc.Api.GetSuccessfulTransactionResponse;
    const byInner = (await ctx.server.getTransaction(hex(inner))) as rpc.Api.GetSuccessfulTransactionResponse;
    for (const res of [byOuter, byInner]) {
      expect(res.status).toBe('SUCCESS');
      expect(res.feeBump).toBe(true);
      expect(res.ledger).toBe(closed.sequence);
      expect(res.envelopeXdr.type).toBe('envelopeTypeTxFeeBump');
    }
    expect(byInner.txHash).toBe(hex(inner));
    const result = byOuter.resultXdr;
    expect(result.result.type).toBe('txFeeBumpInnerSuccess');
    const pair = xdr.expectUnionVariant(result.result, 'txFeeBumpInnerSuccess').innerResultPair;
    expect(Buffer.from(pair.transactionHash.value).toString('hex')).toBe(hex(inner));
    expect(pair.result.feeCharged).toBe(0n);
    expect(pair.result.result.type).toBe('txSuccess');

    // The fee source pays feeCharged; the merchant pays nothing but its sequence number is used.
    expect(await xlm(payer)).toBe(payerXlm - result.feeCharged);
    expect(await xlm(merchant)).toBe(merchantXlm);
    expect((await ctx.server.getAccount(merchant.publicKey())).sequenceNumber()).toBe((BigInt(seq) + 1n).toString());
    // Inclusion fee charged at the base fee: 100 per operation, 2 operations.
    const fees = xdr.expectUnionVariant(
      xdr.expectUnionVariant(byOuter.resultMetaXdr, 'v4').v4.sorobanMeta!.ext,
      'v1',
    ).v1;
    expect(result.feeCharged - fees.totalNonRefundableResourceFeeCharged - fees.totalRefundableResourceFeeCharged).toBe(
      200n,
    );
    // The `fee` events name the fee source.
    const feeEvents = byOuter.events.transactionEventsXdr.map((e) => scValToNative(e.event.body.v0.topics[1]));
    expect(feeEvents).toEqual([payer.publicKey(), payer.publicKey()]);

    // getEvents and the ledger's transaction set carry the fee bump under its outer hash.
    const events = await ctx.server.getEvents({
      startLedger: closed.sequence,
      filters: [{ type: 'contract', contractIds: [vault] }],
    });
    expect(events.events.map((e) => e.txHash)).toEqual([hex(outer)]);
    const { ledgers } = await ctx.server.getLedgers({ startLedger: closed.sequence, pagination: { limit: 1 } });
    const meta = xdr.expectUnionVariant(ledgers[0].metadataXdr, 'v2').v2;
    expect(Buffer.from(meta.txProcessing[0].result.transactionHash.value).toString('hex')).toBe(hex(outer));
    const stage = xdr.expectUnionVariant(
      xdr.expectUnionVariant(meta.txSet, 'v1TxSet').v1TxSet.phases[1],
      'parallelTxsComponent',
    );
    expect(stage.parallelTxsComponent.executionStages[0][0][0].type).toBe('envelopeTypeTxFeeBump');
    const listed = (
      await control<{ hash: string; feeBump?: { feeSource: string; innerHash: string } }[]>(ctx, 'transactions')
    ).find((t) => t.hash === hex(outer));
    expect(listed?.feeBump).toEqual({ feeSource: payer.publicKey(), innerHash: hex(inner) });
  });

  it('an inner transaction that fails on chain is txFEE_BUMP_INNER_FAILED, the fee source still charged', async () => {
    const [source, payer] = [kp(ctx, 3), kp(ctx, 4)];
    const inner = await prepareAndSign(
      ctx,
      await buildCall(ctx, source, ctx.devnet.contracts.token, 'balance', [addr(source.publicKey())]),
      source,
    );
    await control(ctx, 'faults', { kind: 'fail-next' });
    const outer = bump(inner, payer);
    const before = await xlm(payer);
    expect((await ctx.server.sendTransaction(outer)).status).toBe('PENDING');
    await closeLedger(ctx);
    const res = (await ctx.server.getTransaction(hex(inner))) as rpc.Api.GetFailedTransactionResponse;
    expect(res.status).toBe('FAILED');
    expect(res.feeBump).toBe(true);
    expect(res.resultXdr.result.type).toBe('txFeeBumpInnerFailed');
    const inner2 = xdr.expectUnionVariant(res.resultXdr.result, 'txFeeBumpInnerFailed').innerResultPair.result.result;
    expect(inner2.type).toBe('txFailed');
    expect(await xlm(payer)).toBe(before - res.resultXdr.feeCharged);
  });
});

describe('fee-bump refusals', () => {
  it('outer fee under the base fee for inner operations + 1, or below the inner rate: txINSUFFICIENT_FEE', async () => {
    const [source, payer] = [kp(ctx, 5), kp(ctx, 6)];
    const inner = await prepareAndSign(
      ctx,
      await buildCall(ctx, source, ctx.devnet.contracts.token, 'balance', [addr(source.publicKey())], { fee: 300 }),
      source,
    );
    const resourceFee = resourceFeeOf(inner);
    const under = await ctx.server.sendTransaction(bumpWithFee(inner, payer, resourceFee + 150n));
    expect(errorCode(under)).toBe('txInsufficientFee');
    expect(under.errorResult!.feeCharged).toBe(resourceFee + 200n);
    // 400 for 2 operations is 200 per operation, below the inner 300: the fee needed is 600.
    const lower = await ctx.server.sendTransaction(bumpWithFee(inner, payer, resourceFee + 400n));
    expect(errorCode(lower)).toBe('txInsufficientFee');
    expect(lower.errorResult!.feeCharged).toBe(600n);
  });

  it('protocol ≥ 23: an inner Soroban fee below its own resource fee is fine inside a fee bump', async () => {
    const [source, payer] = [kp(ctx, 7), kp(ctx, 6)];
    const prepared = await ctx.server.prepareTransaction(
      await buildCall(ctx, source, ctx.devnet.contracts.token, 'balance', [addr(source.publicKey())]),
    );
    const v1 = xdr.expectUnionVariant(prepared.toEnvelope(), 'envelopeTypeTx').v1;
    const starvedTx = new xdr.Transaction({ ...v1.tx, fee: 1 });
    const starved = new Transaction(
      xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx: starvedTx, signatures: [] })),
      ctx.devnet.passphrase,
    );
    starved.sign(source);
    // Alone it is refused: its resource fee is above its fee.
    expect(errorCode(await ctx.server.sendTransaction(starved))).toBe('txSorobanInvalid');
    const outer = bumpWithFee(starved, payer, resourceFeeOf(starved) + 200n);
    expect((await ctx.server.sendTransaction(outer)).status).toBe('PENDING');
    await closeLedger(ctx);
    expect((await ctx.server.getTransaction(hex(outer))).status).toBe('SUCCESS');
  });

  it("the inner transaction's own problems are txFEE_BUMP_INNER_FAILED with the inner code; the fee source's signature is txBAD_AUTH", async () => {
    const [source, payer] = [kp(ctx, 5), kp(ctx, 6)];
    const prepared = await ctx.server.prepareTransaction(
      await buildCall(ctx, source, ctx.devnet.contracts.token, 'balance', [addr(source.publicKey())]),
    );
    const v1 = xdr.expectUnionVariant(prepared.toEnvelope(), 'envelopeTypeTx').v1;
    const aheadTx = new xdr.Transaction({ ...v1.tx, seqNum: v1.tx.seqNum + 5n });
    const tx = new Transaction(
      xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx: aheadTx, signatures: [] })),
      ctx.devnet.passphrase,
    );
    tx.sign(source);
    const sent = await ctx.server.sendTransaction(bump(tx, payer));
    expect(errorCode(sent)).toBe('txFeeBumpInnerFailed');
    const innerCode = xdr.expectUnionVariant(sent.errorResult!.result, 'txFeeBumpInnerFailed').innerResultPair.result
      .result.type;
    expect(innerCode).toBe('txBadSeq');

    const good = await prepareAndSign(
      ctx,
      await buildCall(ctx, source, ctx.devnet.contracts.token, 'balance', [addr(source.publicKey())]),
      source,
    );
    const unsigned = TransactionBuilder.buildFeeBumpTransaction(payer, '100', good, ctx.devnet.passphrase);
    unsigned.sign(Keypair.random());
    expect(errorCode(await ctx.server.sendTransaction(unsigned))).toBe('txBadAuth');
  });
});
