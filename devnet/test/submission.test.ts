// sendTransaction admission and inclusion rules through the SDK: signatures, sequence
// numbers, one queued tx per source, fees, time bounds, footprint, state drift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Account,
  Operation,
  type rpc,
  SorobanDataBuilder,
  TransactionBuilder,
  xdr,
  type Keypair,
} from '@stellar/stellar-sdk';
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
  sendAndClose,
  startTestDevnet,
  u32,
  type Ctx,
} from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
let token: string;
beforeAll(async () => {
  ctx = await startTestDevnet(8);
  token = ctx.devnet.contracts.token;
});
afterAll(() => ctx.devnet.close());

const balanceCall = (who: Keypair) => [addr(who.publicKey())];
const errorCode = (sent: rpc.Api.SendTransactionResponse) => sent.errorResult?.result.type;
const opCode = (res: rpc.Api.GetTransactionResponse) =>
  res.status === 'FAILED' ? opResultCode(res.resultXdr) : undefined;
/** The Soroban data of a prepared (v1-envelope) transaction. */
const sorobanDataOf = (tx: { toEnvelope(): xdr.TransactionEnvelope }) => {
  const ext = xdr.expectUnionVariant(tx.toEnvelope(), 'envelopeTypeTx').v1.tx.ext;
  return xdr.expectUnionVariant(ext, 'sorobanData').sorobanData;
};

describe('admission (sendTransaction ERROR / TRY_AGAIN_LATER / DUPLICATE)', () => {
  it('a signature by another key is txBAD_AUTH, and nothing is consumed', async () => {
    const source = kp(ctx, 0);
    const before = await ctx.server.getAccount(source.publicKey());
    const tx = await prepareAndSign(
      ctx,
      await buildCall(ctx, source, token, 'balance', balanceCall(source)),
      kp(ctx, 1),
    );
    const sent = await ctx.server.sendTransaction(tx);
    expect(sent.status).toBe('ERROR');
    expect(errorCode(sent)).toBe('txBadAuth');
    expect(sent.errorResult!.feeCharged).toBeGreaterThan(100n);
    expect((await ctx.server.getAccount(source.publicKey())).sequenceNumber()).toBe(before.sequenceNumber());
  });

  it('an extra unrelated signature is txBAD_AUTH_EXTRA', async () => {
    const source = kp(ctx, 0);
    const tx = await prepareAndSign(ctx, await buildCall(ctx, source, token, 'balance', balanceCall(source)), source);
    tx.sign(kp(ctx, 1));
    expect(errorCode(await ctx.server.sendTransaction(tx))).toBe('txBadAuthExtra');
  });

  it('a wrong sequence number is txBAD_SEQ', async () => {
    const source = kp(ctx, 0);
    const acc = await ctx.server.getAccount(source.publicKey());
    const ahead = new Account(source.publicKey(), (BigInt(acc.sequenceNumber()) + 5n).toString());
    const built = new TransactionBuilder(ahead, { fee: '100', networkPassphrase: ctx.devnet.passphrase })
      .addOperation(
        Operation.invokeContractFunction({ contract: token, function: 'balance', args: balanceCall(source) }),
      )
      .setTimeout(300)
      .build();
    const tx = await prepareAndSign(ctx, built, source);
    expect(errorCode(await ctx.server.sendTransaction(tx))).toBe('txBadSeq');
  });

  it('a second transaction of the same source in one ledger is TRY_AGAIN_LATER; the same one is DUPLICATE', async () => {
    const source = kp(ctx, 1);
    const acc = await ctx.server.getAccount(source.publicKey());
    const build = () =>
      new TransactionBuilder(acc, { fee: '100', networkPassphrase: ctx.devnet.passphrase })
        .addOperation(
          Operation.invokeContractFunction({ contract: token, function: 'balance', args: balanceCall(source) }),
        )
        .setTimeout(300)
        .build();
    const first = await prepareAndSign(ctx, build(), source);
    const second = await prepareAndSign(ctx, build(), source);
    expect((await ctx.server.sendTransaction(first)).status).toBe('PENDING');
    expect((await ctx.server.sendTransaction(first)).status).toBe('DUPLICATE');
    const again = await ctx.server.sendTransaction(second);
    expect(again.status).toBe('TRY_AGAIN_LATER');
    expect(again.errorResult).toBeUndefined();
    await closeLedger(ctx);
    expect((await ctx.server.getTransaction(Buffer.from(first.hash()).toString('hex'))).status).toBe('SUCCESS');
    // Once included, the hash is banned for 10 ledgers (TransactionQueue::removeApplied bans
    // applied transactions): TRY_AGAIN_LATER; after that, resending is a sequence error.
    expect((await ctx.server.sendTransaction(first)).status).toBe('TRY_AGAIN_LATER');
    expect((await ctx.server.sendTransaction(second)).status).toBe('PENDING');
    await closeLedger(ctx);
  });

  it('an inclusion fee under 100 stroops is txINSUFFICIENT_FEE', async () => {
    const source = kp(ctx, 2);
    const prepared = await ctx.server.prepareTransaction(
      await buildCall(ctx, source, token, 'balance', balanceCall(source)),
    );
    const data = sorobanDataOf(prepared);
    const cheap = TransactionBuilder.cloneFrom(prepared, { fee: '10', sorobanData: data }).build();
    cheap.sign(source);
    expect(errorCode(await ctx.server.sendTransaction(cheap))).toBe('txInsufficientFee');
  });

  it('a resource fee below the declared resources is txSOROBAN_INVALID', async () => {
    const source = kp(ctx, 2);
    const prepared = await ctx.server.prepareTransaction(
      await buildCall(ctx, source, token, 'balance', balanceCall(source)),
    );
    const data = new SorobanDataBuilder(sorobanDataOf(prepared)).setResourceFee(10).build();
    const tx = TransactionBuilder.cloneFrom(prepared, { fee: '100', sorobanData: data }).build();
    tx.sign(source);
    expect(errorCode(await ctx.server.sendTransaction(tx))).toBe('txSorobanInvalid');
  });

  it('a max time within the look-ahead is txTOO_LATE; a future min time is txTOO_EARLY', async () => {
    const source = kp(ctx, 2);
    const now = Math.floor(Date.now() / 1000);
    const late = await buildCall(ctx, source, token, 'balance', balanceCall(source), {
      timebounds: { minTime: 0, maxTime: now + 1 },
    });
    expect(errorCode(await ctx.server.sendTransaction(await prepareAndSign(ctx, late, source)))).toBe('txTooLate');
    const early = await buildCall(ctx, source, token, 'balance', balanceCall(source), {
      timebounds: { minTime: now + 600, maxTime: now + 900 },
    });
    expect(errorCode(await ctx.server.sendTransaction(await prepareAndSign(ctx, early, source)))).toBe('txTooEarly');
  });

  it("txTOO_LATE is judged on ledger close time with the 5 s network's 10 s look-ahead, whatever the ledger period", async () => {
    const source = kp(ctx, 2);
    await closeLedger(ctx);
    const { closeTime } = ctx.devnet.control.state();
    const at = (maxTime: number) =>
      buildCall(ctx, source, token, 'balance', balanceCall(source), { timebounds: { minTime: 0, maxTime } });
    // getUpperBoundCloseTimeOffset: 2 × 5 s + the seconds since the last close (0 or 1 here).
    expect(
      errorCode(await ctx.server.sendTransaction(await prepareAndSign(ctx, await at(closeTime + 9), source))),
    ).toBe('txTooLate');
    // Ledger time moved ahead by a day: a bound from the wall clock is too late, one from the
    // latest close time is accepted.
    await control(ctx, 'advance-time', { seconds: 86_400 });
    const day = (await closeLedger(ctx)).closeTime;
    const wall = Math.floor(Date.now() / 1000) + 300;
    expect(errorCode(await ctx.server.sendTransaction(await prepareAndSign(ctx, await at(wall), source)))).toBe(
      'txTooLate',
    );
    const ok = await prepareAndSign(ctx, await at(day + 60), source);
    expect((await sendAndClose(ctx, ok)).status).toBe('SUCCESS');
  });
});

describe('inclusion', () => {
  it('a queued transaction whose max time comes within the look-ahead is dropped at the next ledger and banned', async () => {
    const source = kp(ctx, 3);
    const { closeTime } = ctx.devnet.control.state();
    const built = await buildCall(ctx, source, token, 'balance', balanceCall(source), {
      timebounds: { minTime: 0, maxTime: closeTime + 30 },
    });
    const tx = await prepareAndSign(ctx, built, source);
    await control(ctx, 'faults', { kind: 'delay', ledgers: 5 });
    const sent = await ctx.server.sendTransaction(tx);
    expect(sent.status).toBe('PENDING');
    // The next ledger closes 25 s later: maxTime < its close time + 10 s, so the queue drops it
    // (HerderImpl::updateTransactionQueue → getInvalidTxListWithErrors) before it could be included.
    await control(ctx, 'advance-time', { seconds: 25 });
    await closeLedger(ctx);
    const rec = (await control<{ hash: string; status: string }[]>(ctx, 'transactions')).find(
      (t) => t.hash === sent.hash,
    );
    expect(rec?.status).toBe('expired');
    for (let i = 0; i < 5; i++) await closeLedger(ctx);
    expect((await ctx.server.getTransaction(sent.hash)).status).toBe('NOT_FOUND');
    // Its hash is banned for a while: a resend is TRY_AGAIN_LATER, and the sequence was not consumed.
    expect((await ctx.server.sendTransaction(tx)).status).toBe('TRY_AGAIN_LATER');
    const acc = await ctx.server.getAccount(source.publicKey());
    expect(BigInt(acc.sequenceNumber()) + 1n).toBe(BigInt(tx.sequence));
  });

  it('a footprint missing an entry the call writes fails on chain with Error(Storage, ExceededLimit), charging the fee', async () => {
    const [user, spender] = [kp(ctx, 4), kp(ctx, 5)];
    const latest = await ctx.server.getLatestLedger();
    const args = [addr(user.publicKey()), addr(spender.publicKey()), i128(5), u32(latest.sequence + 100)];
    const prepared = await ctx.server.prepareTransaction(await buildCall(ctx, user, token, 'approve', args));
    const data = sorobanDataOf(prepared);
    const rw = data.resources.footprint.readWrite;
    const shrunk = new SorobanDataBuilder(data).setReadWrite(rw.filter((k) => k.type !== 'contractData')).build();
    const tx = TransactionBuilder.cloneFrom(prepared, { fee: '100', sorobanData: shrunk }).build();
    tx.sign(user);
    const before = await ctx.server.getAccount(user.publicKey());
    const res = await sendAndClose(ctx, tx);
    expect(res.status).toBe('FAILED');
    expect(opCode(res)).toBe('invokeHostFunctionTrapped');
    const diag = (res as rpc.Api.GetFailedTransactionResponse).diagnosticEventsXdr ?? [];
    const errorTopics = diag
      .map((d) => d.event.body.v0.topics)
      .filter((t) => t[0]?.type === 'scvSymbol' && t[0].sym.toString() === 'error');
    expect(xdr.expectUnionVariant(errorTopics[0][1], 'scvError').error.type).toBe('sceStorage');
    const after = await ctx.server.getAccount(user.publicKey());
    expect(BigInt(after.sequenceNumber())).toBe(BigInt(before.sequenceNumber()) + 1n);
    expect((res as rpc.Api.GetFailedTransactionResponse).resultXdr.feeCharged).toBeGreaterThan(100n);
    expect((res as { returnValue?: unknown }).returnValue).toBeUndefined();
  });

  it('state changed between simulation and inclusion fails the transaction (FAILED, TRAPPED)', async () => {
    const [user, merchant] = [kp(ctx, 6), kp(ctx, 7)];
    const { vault } = ctx.devnet.contracts;
    await fundAndApprove(ctx, user, 1000n, 1000n);
    await createVault(ctx, user, merchant, { amount: 100n, interval: 60n });
    const pull = await prepareAndSign(
      ctx,
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
      merchant,
    );
    // The subscriber revokes the allowance in the meantime.
    await invokeOk(ctx, user, token, 'approve', [addr(user.publicKey()), addr(vault), i128(0), u32(0)]);
    const res = await sendAndClose(ctx, pull);
    expect(res.status).toBe('FAILED');
    expect(opCode(res)).toBe('invokeHostFunctionTrapped');
    const tx = (await control<{ function: string; status: string }[]>(ctx, 'transactions')).filter(
      (t) => t.function === 'pull_funds',
    );
    expect(tx.at(-1)?.status).toBe('failed');
  });

  it('getTransaction carries createdAt, ledger and meta v4 the SDK parses', async () => {
    const source = kp(ctx, 0);
    const tx = await prepareAndSign(ctx, await buildCall(ctx, source, token, 'balance', balanceCall(source)), source);
    const sent = await ctx.server.sendTransaction(tx);
    expect((await ctx.server.getTransaction(sent.hash)).status).toBe('NOT_FOUND');
    await closeLedger(ctx);
    const res = (await ctx.server.getTransaction(sent.hash)) as rpc.Api.GetSuccessfulTransactionResponse;
    expect(res.status).toBe('SUCCESS');
    expect(res.ledger).toBeGreaterThan(sent.latestLedger);
    expect(typeof res.createdAt).toBe('string');
    expect(Number(res.createdAt)).toBeGreaterThan(Number(sent.latestLedgerCloseTime));
    expect(res.resultMetaXdr.type).toBe('v4');
    expect(res.returnValue?.type).toBe('scvI128');
    expect(res.events.transactionEventsXdr).toHaveLength(2);
    const polled = await ctx.server.pollTransaction(sent.hash, { attempts: 2 });
    expect(polled.status).toBe('SUCCESS');
  });
});
