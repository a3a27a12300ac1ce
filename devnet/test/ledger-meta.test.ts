// Protocol 27 and real ledger meta: version fields, LedgerCloseMetaV2 holding the ledger's
// transaction set and processing (fees, sequence bump, refund), the same TransactionMeta in
// getTransaction, getLedgers for older ledgers, the token's transfer event of pull_funds,
// simulation stateChanges, and a retention window that forgets old ledgers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, scValToNative, xdr, type Keypair } from '@stellar/stellar-sdk';
import { startDevnet } from '../src/index.ts';
import { buildCall, closeLedger, kp, prepareAndSign, startTestDevnet, type Ctx } from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet();
});
afterAll(() => ctx.devnet.close());

const raw = async (method: string, params?: unknown) => {
  const res = await fetch(ctx.devnet.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return ((await res.json()) as { result: any }).result;
};

const accountOf = (e: xdr.LedgerEntry) => xdr.expectUnionVariant(e.data, 'account').account;
const changedAccount = (c: xdr.LedgerEntryChange) =>
  accountOf(c.type === 'ledgerEntryState' ? c.state : xdr.expectUnionVariant(c, 'ledgerEntryUpdated').updated);

describe('protocol 27', () => {
  it('reports 27 in getNetwork, getVersionInfo, getLatestLedger and the ledger header', async () => {
    expect((await ctx.server.getNetwork()).protocolVersion).toBe(27);
    expect((await raw('getVersionInfo')).protocolVersion).toBe(27);
    const latest = await ctx.server.getLatestLedger();
    expect(latest.protocolVersion).toBe(27);
    expect(latest.headerXdr.ledgerVersion).toBe(27);
    const meta = xdr.expectUnionVariant(latest.metadataXdr, 'v2').v2;
    expect(meta.ledgerHeader.header.ledgerVersion).toBe(27);
  });
});

describe('ledger meta', () => {
  let user: Keypair;
  let merchant: Keypair;
  beforeAll(async () => {
    [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    await fundAndApprove(ctx, user, 1_000_000n, 1_000_000n);
    await createVault(ctx, user, merchant, { amount: 250n, interval: 60n });
  });

  it('simulating pull_funds shows the vault entry before and after (stateChanges)', async () => {
    const { vault } = ctx.devnet.contracts;
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
    );
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
    const vaultChange = sim.stateChanges!.find(
      (c) =>
        c.key.type === 'contractData' && scValToNative(xdr.ScVal.scvAddress(c.key.contractData.contract)) === vault,
    );
    expect(vaultChange).toBeDefined();
    const before = xdr.expectUnionVariant(vaultChange!.before!.data, 'contractData').contractData.val;
    const after = xdr.expectUnionVariant(vaultChange!.after!.data, 'contractData').contractData.val;
    expect(scValToNative(before).last_pull_timestamp).toBe(0n);
    expect(scValToNative(after).amount_per_interval).toBe(250n);
    expect(scValToNative(after).last_pull_timestamp).toBeGreaterThan(0n);
    const rawSim = await raw('simulateTransaction', {
      transaction: (await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant))).toXDR(),
    });
    expect(rawSim.stateChanges.map((c: { type: string }) => c.type)).toContain('updated');
  });

  it('the ledger holding pull_funds carries its envelope, result, fee processing, seq bump, transfer event and refund', async () => {
    const { vault, token } = ctx.devnet.contracts;
    const tx = await prepareAndSign(
      ctx,
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
      merchant,
    );
    const sent = await ctx.server.sendTransaction(tx);
    const closed = await closeLedger(ctx);
    const res = (await ctx.server.getTransaction(sent.hash)) as rpc.Api.GetSuccessfulTransactionResponse;
    expect(res.status).toBe('SUCCESS');

    // The token's transfer event (CAP-67): ["transfer", from, to, "USDC:<issuer>"], data i128 amount,
    // in the meta's operation events and in events.contractEventsXdr alike.
    const meta = xdr.expectUnionVariant(res.resultMetaXdr, 'v4').v4;
    const isTransfer = (e: xdr.ContractEvent) => scValToNative(e.body.v0.topics[0]) === 'transfer';
    const transfer = meta.operations[0].events.find(isTransfer)!;
    expect(
      transfer.contractId &&
        scValToNative(xdr.ScVal.scvAddress(xdr.ScAddress.scAddressTypeContract(transfer.contractId))),
    ).toBe(token);
    expect(transfer.body.v0.topics.map(scValToNative)).toEqual([
      'transfer',
      user.publicKey(),
      merchant.publicKey(),
      `USDC:${ctx.devnet.tokenAdmin.publicKey}`,
    ]);
    expect(transfer.body.v0.topics[3].type).toBe('scvString');
    expect(transfer.body.v0.data.type).toBe('scvI128');
    expect(scValToNative(transfer.body.v0.data)).toBe(250n);
    expect(res.events.contractEventsXdr[0].find(isTransfer)!.toXdr('base64')).toBe(transfer.toXdr('base64'));

    // Sequence bump in txChangesBefore, with seqLedger/seqTime (AccountEntryExtensionV3).
    expect(meta.txChangesBefore.map((c) => c.type)).toEqual(['ledgerEntryState', 'ledgerEntryUpdated']);
    const [pre, post] = meta.txChangesBefore.map(changedAccount);
    expect(post.seqNum).toBe(pre.seqNum + 1n);
    expect(post.seqNum).toBe(BigInt(tx.sequence));
    const v3 = xdr.expectUnionVariant(
      xdr.expectUnionVariant(xdr.expectUnionVariant(post.ext, 'v1').v1.ext, 'v2').v2.ext,
      'v3',
    ).v3;
    expect(v3.seqLedger).toBe(closed.sequence);
    expect(v3.seqTime).toBe(BigInt(closed.closeTime));
    // Fee events: the whole fee before all transactions, the refund after all of them.
    expect(meta.events.map((e) => e.stage.name)).toEqual([
      'transactionEventStageBeforeAllTxs',
      'transactionEventStageAfterAllTxs',
    ]);

    // The ledger: its tx set holds the envelope, its processing the same meta bytes.
    const latest = await ctx.server.getLatestLedger();
    expect(latest.sequence).toBe(closed.sequence);
    const lcm = xdr.expectUnionVariant(latest.metadataXdr, 'v2').v2;
    const phases = xdr.expectUnionVariant(lcm.txSet, 'v1TxSet').v1TxSet.phases;
    const soroban = xdr.expectUnionVariant(phases[1], 'parallelTxsComponent').parallelTxsComponent;
    expect(soroban.executionStages.flat(2).map((e) => e.toXdr('base64'))).toEqual([tx.toEnvelope().toXdr('base64')]);
    expect(lcm.txProcessing).toHaveLength(1);
    const p = lcm.txProcessing[0];
    expect(Buffer.from(p.result.transactionHash.value).toString('hex')).toBe(sent.hash);
    expect(p.result.result.toXdr('base64')).toBe(res.resultXdr.toXdr('base64'));
    expect(p.txApplyProcessing.toXdr('base64')).toBe(res.resultMetaXdr.toXdr('base64'));
    const [feeBefore, feeAfter] = p.feeProcessing.map(changedAccount);
    expect(feeBefore.balance - feeAfter.balance).toBe(BigInt(tx.fee));
    const [refundBefore, refundAfter] = p.postTxApplyFeeProcessing.map(changedAccount);
    expect(refundAfter.balance - refundBefore.balance).toBe(BigInt(tx.fee) - res.resultXdr.feeCharged);
    expect(lcm.ledgerHeader.header.txSetResultHash.value).not.toEqual(new Uint8Array(32));

    // Older ledgers stay available through getLedgers.
    await closeLedger(ctx);
    const page = await ctx.server.getLedgers({ startLedger: closed.sequence, pagination: { limit: 1 } });
    expect(page.ledgers).toHaveLength(1);
    expect(page.ledgers[0].sequence).toBe(closed.sequence);
    expect(page.ledgers[0].metadataXdr.toXdr('base64')).toBe(latest.metadataXdr.toXdr('base64'));
    expect(page.cursor).toBe(String(closed.sequence));
  });

  it('an empty ledger has an empty Soroban phase and no processing', async () => {
    await closeLedger(ctx);
    const lcm = xdr.expectUnionVariant((await ctx.server.getLatestLedger()).metadataXdr, 'v2').v2;
    expect(lcm.txProcessing).toEqual([]);
    const phases = xdr.expectUnionVariant(lcm.txSet, 'v1TxSet').v1TxSet.phases;
    expect(phases.map((ph) => ph.type)).toEqual(['v0Components', 'parallelTxsComponent']);
  });
});

describe('retention window', () => {
  it('forgets transactions and ledgers older than --retention-ledgers, and says so in getHealth', async () => {
    const d = await startDevnet({ port: 0, ledgerMs: 0, accounts: 2, retentionLedgers: 3 });
    try {
      const local: Ctx = { devnet: d, server: new rpc.Server(d.rpcUrl, { allowHttp: true }) };
      const source = kp(local, 0);
      const tx = await prepareAndSign(local, await buildCall(local, source, d.contracts.token, 'decimals', []), source);
      const sent = await local.server.sendTransaction(tx);
      const inLedger = await closeLedger(local);
      expect((await local.server.getTransaction(sent.hash)).status).toBe('SUCCESS');
      await closeLedger(local);
      await closeLedger(local);
      // Ledgers inLedger .. inLedger+2 are the window: still found.
      expect((await local.server.getTransaction(sent.hash)).status).toBe('SUCCESS');
      const last = await closeLedger(local);
      const gone = await local.server.getTransaction(sent.hash);
      expect(gone.status).toBe('NOT_FOUND');
      expect(gone.oldestLedger).toBe(inLedger.sequence + 1);
      expect(gone.latestLedger).toBe(last.sequence);
      const res = await fetch(d.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
      });
      const h = ((await res.json()) as { result: Record<string, unknown> }).result;
      expect(h).toEqual({
        status: 'healthy',
        latestLedger: last.sequence,
        latestLedgerCloseTime: String(last.closeTime),
        oldestLedger: inLedger.sequence + 1,
        oldestLedgerCloseTime: String(gone.oldestLedgerCloseTime),
        ledgerRetentionWindow: 3,
      });
      await expect(local.server.getLedgers({ startLedger: inLedger.sequence })).rejects.toMatchObject({ code: -32600 });
      const events = await local.server.getEvents({ startLedger: inLedger.sequence + 1, filters: [] });
      expect(events.oldestLedger).toBe(inLedger.sequence + 1);
    } finally {
      await d.close();
    }
  });

  it('keeps everything by default and reports the RPC default window', async () => {
    const h = await raw('getHealth');
    expect(h.oldestLedger).toBe(1);
    expect(h.ledgerRetentionWindow).toBe(120_960);
    expect(typeof h.oldestLedgerCloseTime).toBe('string');
  });
});
