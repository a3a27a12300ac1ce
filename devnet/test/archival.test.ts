// State archival through the SDK, on a network whose minimum TTLs are shortened for the test
// (--min-persistent-ttl 10, --min-temporary-ttl 5): a persistent entry past its TTL is archived
// (getLedgerEntries still returns it, liveUntilLedgerSeq 0), simulation lists it in
// archivedSorobanEntries and the invocation restores it at a higher resource fee; without the mark
// the invocation fails ENTRY_ARCHIVED; RestoreFootprint and ExtendFootprintTTL operations; a
// temporary entry past its TTL is gone (an expired allowance reads like one never made).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Address,
  Operation,
  rpc,
  SorobanDataBuilder,
  TransactionBuilder,
  xdr,
  type Keypair,
} from '@stellar/stellar-sdk';
import {
  buildCall,
  closeLedger,
  control,
  kp,
  opResultCode,
  prepareAndSign,
  sendAndClose,
  startTestDevnet,
  type Ctx,
} from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';
import { vaultKey } from '../src/contracts/vault-layout.ts';
import { allowanceKey } from '../src/contracts/token.ts';

const MIN_PERSISTENT = 10;
const MIN_TEMPORARY = 5;

let ctx: Ctx;
let vault: string;
let token: string;
beforeAll(async () => {
  ctx = await startTestDevnet(6, { minPersistentTtl: MIN_PERSISTENT, minTemporaryTtl: MIN_TEMPORARY });
  ({ vault, token } = ctx.devnet.contracts);
});
afterAll(() => ctx.devnet.close());

const dataKey = (contract: string, key: xdr.ScVal, durability: 'persistent' | 'temporary') =>
  xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contract).toScAddress(),
      key,
      durability:
        durability === 'persistent' ? xdr.ContractDataDurability.persistent : xdr.ContractDataDurability.temporary,
    }),
  );
const vaultLedgerKey = (user: Keypair, merchant: Keypair) =>
  dataKey(vault, vaultKey(user.publicKey(), merchant.publicKey()), 'persistent');

async function entry(key: xdr.LedgerKey) {
  const { entries } = await ctx.server.getLedgerEntries(key);
  return entries[0];
}

const dataOf = (tx: { toEnvelope(): xdr.TransactionEnvelope }) =>
  xdr.expectUnionVariant(xdr.expectUnionVariant(tx.toEnvelope(), 'envelopeTypeTx').v1.tx.ext, 'sorobanData')
    .sorobanData;

const advance = (count: number) => control<{ sequence: number; closeTime: number }>(ctx, 'advance-ledgers', { count });

describe('POST /control/advance-ledgers', () => {
  it('closes count ledgers at once, 5 s of ledger time apart', async () => {
    const before = ctx.devnet.control.state();
    const after = await advance(12);
    expect(after.sequence).toBe(before.sequence + 12);
    expect(after.closeTime).toBe(before.closeTime + 60);
    expect((await ctx.server.getLatestLedger()).sequence).toBe(after.sequence);
    const config = await control<{ minPersistentTtl: number; minTemporaryTtl: number; maxEntryTtl: number }>(
      ctx,
      'network-config',
    );
    expect([config.minPersistentTtl, config.minTemporaryTtl, config.maxEntryTtl]).toEqual([
      MIN_PERSISTENT,
      MIN_TEMPORARY,
      3_110_400,
    ]);
  });
});

describe('persistent entries', () => {
  const [user, merchant] = [() => kp(ctx, 0), () => kp(ctx, 1)];

  it('a new entry lives for the minimum persistent TTL; past it getLedgerEntries shows it archived (TTL 0)', async () => {
    await fundAndApprove(ctx, user(), 1_000_000n, 1_000_000n, 5000);
    const created = await createVault(ctx, user(), merchant(), { amount: 1000n, interval: 60n });
    const live = await entry(vaultLedgerKey(user(), merchant()));
    expect(live.liveUntilLedgerSeq).toBe(created.ledger + MIN_PERSISTENT - 1);
    await advance(MIN_PERSISTENT);
    const archived = await entry(vaultLedgerKey(user(), merchant()));
    expect(archived).toBeDefined();
    expect(archived.liveUntilLedgerSeq).toBe(0);
  });

  it('simulation marks the archived vault for restoring, at a higher resource fee, and the pull restores it', async () => {
    const built = await buildCall(ctx, merchant(), vault, 'pull_funds', pullArgs(user(), merchant()));
    const sim = await ctx.server.simulateTransaction(built);
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(JSON.stringify(sim));
    const data = sim.transactionData.build();
    const rw = data.resources.footprint.readWrite;
    expect(data.ext.type).toBe('resourceExt');
    const marked = xdr.expectUnionVariant(data.ext, 'resourceExt').resourceExt.archivedSorobanEntries;
    expect(marked.map((i) => rw[i].toXdr('base64'))).toEqual([vaultLedgerKey(user(), merchant()).toXdr('base64')]);
    // Rent for a restored entry plus its disk read.
    const restoredSize = (await entry(vaultLedgerKey(user(), merchant()))).val.toXdr().length + 8;
    expect(data.resources.diskReadBytes).toBeGreaterThanOrEqual(restoredSize);

    const pull = await prepareAndSign(ctx, built, merchant());
    const res = (await sendAndClose(ctx, pull)) as rpc.Api.GetSuccessfulTransactionResponse;
    expect(res.status).toBe('SUCCESS');
    const after = await entry(vaultLedgerKey(user(), merchant()));
    expect(after.liveUntilLedgerSeq).toBe(res.ledger + MIN_PERSISTENT - 1);
    const meta = xdr.expectUnionVariant(res.resultMetaXdr, 'v4').v4;
    const changes = meta.operations[0].changes.map((c) => c.type);
    expect(changes).toContain('ledgerEntryRestored');
    const fees = xdr.expectUnionVariant(meta.sorobanMeta!.ext, 'v1').v1;
    expect(fees.rentFeeCharged).toBeGreaterThan(0n);

    // A pull of the live vault, an interval later, declares no restore and costs less.
    await control(ctx, 'advance-time', { seconds: 61 });
    await closeLedger(ctx);
    const liveSim = await ctx.server.simulateTransaction(
      await buildCall(ctx, merchant(), vault, 'pull_funds', pullArgs(user(), merchant())),
    );
    if (!rpc.Api.isSimulationSuccess(liveSim)) throw new Error(JSON.stringify(liveSim));
    expect(liveSim.transactionData.build().ext.type).toBe('v0');
    expect(BigInt(liveSim.minResourceFee)).toBeLessThan(data.resourceFee);
    await advance(MIN_PERSISTENT);
  });

  it('an archived entry in the footprint that is not marked fails the invocation with ENTRY_ARCHIVED', async () => {
    const prepared = await ctx.server.prepareTransaction(
      await buildCall(ctx, merchant(), vault, 'pull_funds', pullArgs(user(), merchant())),
    );
    const data = dataOf(prepared);
    const unmarked = new xdr.SorobanTransactionData({
      ext: xdr.SorobanTransactionDataExt.v0(),
      resources: data.resources,
      resourceFee: data.resourceFee,
    });
    const tx = TransactionBuilder.cloneFrom(prepared, { fee: '100', sorobanData: unmarked }).build();
    tx.sign(merchant());
    const res = await sendAndClose(ctx, tx);
    expect(res.status).toBe('FAILED');
    expect(opResultCode((res as rpc.Api.GetFailedTransactionResponse).resultXdr)).toBe(
      'invokeHostFunctionEntryArchived',
    );
    expect((await entry(vaultLedgerKey(user(), merchant()))).liveUntilLedgerSeq).toBe(0);
  });

  it('RestoreFootprint restores an archived entry for the minimum TTL', async () => {
    const account = await ctx.server.getAccount(merchant().publicKey());
    const restore = new TransactionBuilder(account, { fee: '100', networkPassphrase: ctx.devnet.passphrase })
      .addOperation(Operation.restoreFootprint({}))
      .setSorobanData(new SorobanDataBuilder().setReadWrite([vaultLedgerKey(user(), merchant())]).build())
      .setTimebounds(0, ctx.devnet.control.state().closeTime + 300)
      .build();
    const sim = await ctx.server.simulateTransaction(restore);
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(JSON.stringify(sim));
    expect(sim.transactionData.build().resources.footprint.readWrite).toHaveLength(1);
    expect(Number(sim.minResourceFee)).toBeGreaterThan(0);
    const res = await sendAndClose(ctx, await prepareAndSign(ctx, restore, merchant()));
    expect(res.status).toBe('SUCCESS');
    const { ledger, resultMetaXdr } = res as rpc.Api.GetSuccessfulTransactionResponse;
    expect((await entry(vaultLedgerKey(user(), merchant()))).liveUntilLedgerSeq).toBe(ledger + MIN_PERSISTENT - 1);
    const changes = xdr.expectUnionVariant(resultMetaXdr, 'v4').v4.operations[0].changes;
    expect(changes.map((c) => c.type)).toEqual(['ledgerEntryRestored']);
  });

  it('ExtendFootprintTTL extends a live entry, charging the rent', async () => {
    const account = await ctx.server.getAccount(merchant().publicKey());
    const extend = new TransactionBuilder(account, { fee: '100', networkPassphrase: ctx.devnet.passphrase })
      .addOperation(Operation.extendFootprintTtl({ extendTo: 500 }))
      .setSorobanData(new SorobanDataBuilder().setReadOnly([vaultLedgerKey(user(), merchant())]).build())
      .setTimebounds(0, ctx.devnet.control.state().closeTime + 300)
      .build();
    const res = (await sendAndClose(
      ctx,
      await prepareAndSign(ctx, extend, merchant()),
    )) as rpc.Api.GetSuccessfulTransactionResponse;
    expect(res.status).toBe('SUCCESS');
    expect((await entry(vaultLedgerKey(user(), merchant()))).liveUntilLedgerSeq).toBe(res.ledger + 500);
    const fees = xdr.expectUnionVariant(xdr.expectUnionVariant(res.resultMetaXdr, 'v4').v4.sorobanMeta!.ext, 'v1').v1;
    expect(fees.rentFeeCharged).toBeGreaterThan(0n);
    expect(res.resultXdr.result.type).toBe('txSuccess');
  });

  it('an extension beyond the max entry TTL is refused at submission: txFAILED, EXTEND_FOOTPRINT_TTL_MALFORMED', async () => {
    const account = await ctx.server.getAccount(merchant().publicKey());
    const extend = new TransactionBuilder(account, { fee: '100', networkPassphrase: ctx.devnet.passphrase })
      .addOperation(Operation.extendFootprintTtl({ extendTo: 3_110_400 }))
      .setSorobanData(new SorobanDataBuilder().setReadOnly([vaultLedgerKey(user(), merchant())]).build())
      .setTimebounds(0, ctx.devnet.control.state().closeTime + 300)
      .build();
    const sent = await ctx.server.sendTransaction(await prepareAndSign(ctx, extend, merchant()));
    expect(sent.status).toBe('ERROR');
    const result = xdr.expectUnionVariant(sent.errorResult!.result, 'txFailed').results[0];
    expect(
      xdr.expectUnionVariant(xdr.expectUnionVariant(result, 'opInner').tr, 'extendFootprintTtl')
        .extendFootprintTtlResult.type,
    ).toBe('extendFootprintTtlMalformed');
  });

  it('extending an archived entry needs it restored first: simulation answers a restorePreamble', async () => {
    await advance(600);
    const account = await ctx.server.getAccount(merchant().publicKey());
    const extend = new TransactionBuilder(account, { fee: '100', networkPassphrase: ctx.devnet.passphrase })
      .addOperation(Operation.extendFootprintTtl({ extendTo: 100 }))
      .setSorobanData(new SorobanDataBuilder().setReadOnly([vaultLedgerKey(user(), merchant())]).build())
      .setTimebounds(0, ctx.devnet.control.state().closeTime + 300)
      .build();
    const sim = await ctx.server.simulateTransaction(extend);
    expect(rpc.Api.isSimulationRestore(sim)).toBe(true);
    const pre = (sim as rpc.Api.SimulateTransactionRestoreResponse).restorePreamble;
    expect(pre.transactionData.build().resources.footprint.readWrite).toHaveLength(1);
  });
});

describe('temporary entries', () => {
  it('an allowance past its TTL is gone: getLedgerEntries finds nothing and a pull fails #9 as if never approved', async () => {
    const [user, merchant] = [kp(ctx, 2), kp(ctx, 3)];
    await fundAndApprove(ctx, user, 1_000_000n, 1_000_000n, 2);
    await createVault(ctx, user, merchant, { amount: 1000n, interval: 60n });
    const key = dataKey(token, allowanceKey(user.publicKey(), vault), 'temporary');
    const live = await entry(key);
    expect(live.liveUntilLedgerSeq).toBeGreaterThan(0);
    await advance(MIN_TEMPORARY + 3);
    expect(await entry(key)).toBeUndefined();
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
    );
    expect(rpc.Api.isSimulationError(sim) && sim.error).toMatch(/Error\(Contract, #9\)/);
    // The same as a subscriber who never approved.
    const [never, merchant2] = [kp(ctx, 4), kp(ctx, 5)];
    await createVault(ctx, never, merchant2, { amount: 1000n, interval: 60n });
    const neverSim = await ctx.server.simulateTransaction(
      await buildCall(ctx, merchant2, vault, 'pull_funds', pullArgs(never, merchant2)),
    );
    expect(rpc.Api.isSimulationError(neverSim) && neverSim.error.split('\n')[0]).toBe(
      rpc.Api.isSimulationError(sim) && sim.error.split('\n')[0],
    );
  });
});
