// Fees as the network sets them, through the SDK: per-ledger Soroban limits and surge pricing
// (TxSetFrame), the queue's fee rules (TransactionQueue, TxQueueLimiter, SurgePricingUtils),
// getFeeStats from the fees ledgers charged, the congestion control, replace-by-fee.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type rpc, TransactionBuilder, xdr, type Keypair, type Transaction } from '@stellar/stellar-sdk';
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

const errorCode = (sent: rpc.Api.SendTransactionResponse) => sent.errorResult?.result.type;
const hex = (tx: { hash(): Uint8Array }) => Buffer.from(tx.hash()).toString('hex');
type Listed = { hash: string; status: string };

/** A signed `balance` call of `source` bidding `fee` stroops of inclusion fee. */
async function bid(ctx: Ctx, source: Keypair, fee: number): Promise<Transaction> {
  const built = await buildCall(ctx, source, ctx.devnet.contracts.token, 'balance', [addr(source.publicKey())], {
    fee,
  });
  return prepareAndSign(ctx, built, source);
}

const resourceFeeOf = (tx: Transaction) =>
  xdr.expectUnionVariant(tx.toEnvelope(), 'envelopeTypeTx').v1.tx.ext.value as xdr.SorobanTransactionData;

/** What an included transaction paid for inclusion: feeCharged − the resource fees charged. */
function inclusionCharged(res: rpc.Api.GetSuccessfulTransactionResponse): bigint {
  const ext = xdr.expectUnionVariant(res.resultMetaXdr, 'v4').v4.sorobanMeta!.ext;
  const v1 = xdr.expectUnionVariant(ext, 'v1').v1;
  return res.resultXdr.feeCharged - v1.totalNonRefundableResourceFeeCharged - v1.totalRefundableResourceFeeCharged;
}

async function landed(ctx: Ctx, tx: Transaction) {
  const res = await ctx.server.getTransaction(hex(tx));
  return res as rpc.Api.GetSuccessfulTransactionResponse;
}

/** The Soroban phase's base fee of a ledger's transaction set (getLedgers metadataXdr). */
async function setBaseFee(ctx: Ctx, sequence: number): Promise<bigint | null> {
  const { ledgers } = await ctx.server.getLedgers({ startLedger: sequence, pagination: { limit: 1 } });
  const meta = xdr.expectUnionVariant(ledgers[0].metadataXdr, 'v2').v2;
  const phase = xdr.expectUnionVariant(meta.txSet, 'v1TxSet').v1TxSet.phases[1];
  return xdr.expectUnionVariant(phase, 'parallelTxsComponent').parallelTxsComponent.baseFee;
}

describe('per-ledger limits and surge pricing (ledgerMaxTxCount 2)', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await startTestDevnet(10, { ledgerMaxTxCount: 2 });
  });
  afterAll(() => ctx.devnet.close());

  it('getFeeStats is all zeros before any Soroban transaction', async () => {
    const stats = await ctx.server.getFeeStats();
    expect(stats.sorobanInclusionFee.p90).toBe('0');
    expect(stats.sorobanInclusionFee.transactionCount).toBe('0');
    expect(stats.sorobanInclusionFee.ledgerCount).toBe(0);
  });

  it('a full ledger takes the highest bids, all paying the lowest included one; the rest waits', async () => {
    const [low, high, mid] = await Promise.all([
      bid(ctx, kp(ctx, 0), 100),
      bid(ctx, kp(ctx, 1), 300),
      bid(ctx, kp(ctx, 2), 200),
    ]);
    for (const tx of [low, high, mid]) expect((await ctx.server.sendTransaction(tx)).status).toBe('PENDING');
    const first = await closeLedger(ctx);
    expect((await landed(ctx, high)).status).toBe('SUCCESS');
    expect((await landed(ctx, mid)).status).toBe('SUCCESS');
    expect((await ctx.server.getTransaction(hex(low))).status).toBe('NOT_FOUND');
    // Surge pricing: the base fee of that ledger is the lowest included bid, charged to both.
    expect(await setBaseFee(ctx, first.sequence)).toBe(200n);
    expect(inclusionCharged(await landed(ctx, high))).toBe(200n);
    expect(inclusionCharged(await landed(ctx, mid))).toBe(200n);
    // Next ledger: it fits alone, at the ledger base fee.
    const second = await closeLedger(ctx);
    expect((await landed(ctx, low)).ledger).toBe(second.sequence);
    expect(inclusionCharged(await landed(ctx, low))).toBe(100n);
    expect(await setBaseFee(ctx, second.sequence)).toBe(100n);
  });

  it('getFeeStats reports the inclusion fees charged in recent ledgers', async () => {
    const stats = await ctx.server.getFeeStats();
    const s = stats.sorobanInclusionFee;
    expect([s.min, s.max, s.mode, s.p50, s.p90, s.transactionCount]).toEqual(['100', '200', '200', '200', '200', '3']);
    expect(s.ledgerCount).toBe((await ctx.server.getLatestLedger()).sequence - 1);
    expect(stats.inclusionFee.transactionCount).toBe('0');
  });

  it('a full queue refuses a bid that cannot evict (txINSUFFICIENT_FEE naming the fee, then banned) and takes one that can', async () => {
    // Queue capacity: 2 ledgers' worth = 4 transactions.
    const queued = await Promise.all([0, 1, 2, 3].map((i) => bid(ctx, kp(ctx, i), 500)));
    for (const tx of queued) expect((await ctx.server.sendTransaction(tx)).status).toBe('PENDING');
    const low = await bid(ctx, kp(ctx, 4), 400);
    const refused = await ctx.server.sendTransaction(low);
    expect(refused.status).toBe('ERROR');
    expect(errorCode(refused)).toBe('txInsufficientFee');
    expect(refused.errorResult!.feeCharged).toBe(501n + resourceFeeOf(low).resourceFee);
    // The refused envelope is banned for 10 ledgers.
    expect((await ctx.server.sendTransaction(low)).status).toBe('TRY_AGAIN_LATER');
    // 600 evicts one of the 500s, which is banned too.
    const high = await bid(ctx, kp(ctx, 5), 600);
    expect((await ctx.server.sendTransaction(high)).status).toBe('PENDING');
    const listed = await control<Listed[]>(ctx, 'transactions');
    const evicted = queued.filter((tx) => listed.find((t) => t.hash === hex(tx))?.status === 'evicted');
    expect(evicted).toHaveLength(1);
    expect((await ctx.server.sendTransaction(evicted[0])).status).toBe('TRY_AGAIN_LATER');
    // Until the next ledger, a newcomer must beat the evicted bid, even if it could evict another 500.
    const tie = await bid(ctx, kp(ctx, 6), 500);
    const sent = await ctx.server.sendTransaction(tie);
    expect(errorCode(sent)).toBe('txInsufficientFee');
    expect(sent.errorResult!.feeCharged).toBe(501n + resourceFeeOf(tie).resourceFee);
    const closed = await closeLedger(ctx);
    expect((await landed(ctx, high)).status).toBe('SUCCESS');
    expect(await setBaseFee(ctx, closed.sequence)).toBe(500n);
    for (let i = 0; i < 3; i++) await closeLedger(ctx);
  });

  it('a transaction left out for 4 ledgers is dropped from the queue and banned', async () => {
    await control(ctx, 'congestion', { ledgers: 6, perLedger: 2, fee: 1000 });
    const waiting = await bid(ctx, kp(ctx, 7), 200);
    // The queue holds 4: two congestion transactions and ours fit without eviction.
    expect((await ctx.server.sendTransaction(waiting)).status).toBe('PENDING');
    for (let i = 0; i < 3; i++) await closeLedger(ctx);
    expect((await control<Listed[]>(ctx, 'transactions')).find((t) => t.hash === hex(waiting))?.status).toBe('queued');
    await closeLedger(ctx);
    expect((await control<Listed[]>(ctx, 'transactions')).find((t) => t.hash === hex(waiting))?.status).toBe('evicted');
    expect((await ctx.server.getTransaction(hex(waiting))).status).toBe('NOT_FOUND');
    expect((await ctx.server.sendTransaction(waiting)).status).toBe('TRY_AGAIN_LATER');
    for (let i = 0; i < 3; i++) await closeLedger(ctx);
  });
});

describe('POST /control/congestion', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await startTestDevnet(6, { ledgerMaxTxCount: 3 });
  });
  afterAll(() => ctx.devnet.close());

  it('keeps the queue full of higher bids: a low bid is refused, a higher one lands at the surge base fee', async () => {
    const before = ctx.devnet.control.state().sequence;
    const armed = await control<{
      fromLedger: number;
      toLedger: number;
      perLedger: number;
      fee: string;
      queued: number;
    }>(ctx, 'congestion', { ledgers: 3, fee: 1000 });
    expect(armed).toEqual({ fromLedger: before + 1, toLedger: before + 3, perLedger: 6, fee: '1000', queued: 6 });
    const low = await bid(ctx, kp(ctx, 0), 100);
    const refused = await ctx.server.sendTransaction(low);
    expect(errorCode(refused)).toBe('txInsufficientFee');
    const needed = refused.errorResult!.feeCharged - resourceFeeOf(low).resourceFee;
    expect(needed).toBe(1001n);
    const higher = await bid(ctx, kp(ctx, 0), 2 * Number(needed));
    expect((await ctx.server.sendTransaction(higher)).status).toBe('PENDING');
    const closed = await closeLedger(ctx);
    const res = await landed(ctx, higher);
    expect(res.status).toBe('SUCCESS');
    expect(res.ledger).toBe(closed.sequence);
    expect(inclusionCharged(res)).toBe(1000n);
    expect((await ctx.server.getFeeStats()).sorobanInclusionFee.p90).toBe('1000');
    // Still congested in the window; afterwards the leftovers expire and a minimum bid lands.
    expect(errorCode(await ctx.server.sendTransaction(await bid(ctx, kp(ctx, 1), 500)))).toBe('txInsufficientFee');
    await closeLedger(ctx);
    await closeLedger(ctx);
    expect(ctx.devnet.control.state().queued).toBe(0);
    const cheap = await bid(ctx, kp(ctx, 2), 100);
    expect((await ctx.server.sendTransaction(cheap)).status).toBe('PENDING');
    await closeLedger(ctx);
    expect(inclusionCharged(await landed(ctx, cheap))).toBe(100n);
  });
});

describe('replace-by-fee (a fee bump of the same sequence number at 10× the fee)', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await startTestDevnet(4);
  });
  afterAll(() => ctx.devnet.close());

  it('replaces the queued transaction only from 10× its fee per operation; a plain resend is TRY_AGAIN_LATER', async () => {
    const [source, payer] = [kp(ctx, 0), kp(ctx, 1)];
    const queued = await bid(ctx, source, 100);
    expect((await ctx.server.sendTransaction(queued)).status).toBe('PENDING');
    const plain = await bid(ctx, source, 5000);
    expect((await ctx.server.sendTransaction(plain)).status).toBe('TRY_AGAIN_LATER');
    const bump = (baseFee: number) => {
      const fb = TransactionBuilder.buildFeeBumpTransaction(payer, String(baseFee), queued, ctx.devnet.passphrase);
      fb.sign(payer);
      return fb;
    };
    // A fee bump counts 2 operations: 10 × 100 per operation is 2,000 of inclusion fee.
    const short = bump(999);
    const refused = await ctx.server.sendTransaction(short);
    expect(errorCode(refused)).toBe('txInsufficientFee');
    expect(refused.errorResult!.feeCharged).toBe(2000n + resourceFeeOf(queued).resourceFee);
    const enough = bump(1000);
    const sent = await ctx.server.sendTransaction(enough);
    expect(sent.status).toBe('PENDING');
    expect(sent.hash).toBe(hex(enough));
    expect((await control<Listed[]>(ctx, 'transactions')).find((t) => t.hash === hex(queued))?.status).toBe('replaced');
    await closeLedger(ctx);
    const outer = await ctx.server.getTransaction(hex(enough));
    expect(outer.status).toBe('SUCCESS');
    expect((outer as rpc.Api.GetSuccessfulTransactionResponse).feeBump).toBe(true);
    expect((await ctx.server.getTransaction(hex(queued))).status).toBe('SUCCESS');
  });
});
