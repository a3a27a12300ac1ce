// Ledger close, in stellar-core's order for protocol ≥ 23 (LedgerManagerImpl::applyLedger):
// 0. the transaction set: what the queue offers for this ledger, surge-priced within the ledger's
//    Soroban limits (tx/queue.ts chooseForLedger, after TxSetFrame applySurgePricing);
// 1. fee processing for every included transaction, in apply order: the inclusion fee at the
//    set's base fee (min(bid, base fee × operations): TransactionFrame::getFee) plus the whole
//    declared resource fee is charged up front to the fee source — the fee-bump's fee source for a
//    fee bump (TransactionFrame / FeeBumpTransactionFrame::processFeeSeqNum);
// 2. each transaction applies: the sequence-number bump first (txChangesBefore,
//    TransactionFrame::processSeqNum), then its operation against the state as it is now,
//    enforcing the declared footprint and resources; a failure still consumes the sequence:
//    - InvokeHostFunction: archived entries in the footprint fail it (ENTRY_ARCHIVED) unless
//      marked in archivedSorobanEntries, which are restored first (InvokeHostFunctionOpFrame
//      handleArchivedEntry); rent and events come out of the refundable fee;
//    - ExtendFootprintTTL / RestoreFootprint (ExtendFootprintTTLOpFrame, RestoreFootprintOpFrame);
// 3. after the whole set, each transaction's unused refundable fee is refunded to its fee source
//    (TransactionFrame::processPostTxSetApply → postTxApplyFeeProcessing, fee event stage
//    AFTER_ALL_TXS since protocol 23);
// 4. the queue is updated (tx/queue.ts afterLedger: HerderImpl::updateTransactionQueue).
import { xdr } from '@stellar/stellar-sdk';
import { toContractEvent, toDiagnosticEvent } from '../host/events.ts';
import { StorageView } from '../host/storage-view.ts';
import { str, sym } from '../host/scval.ts';
import { toScError, type ErrorCode, type ErrorType } from '../host/host-error.ts';
import { accountKey, isTemporary, keyId } from '../ledger/keys.ts';
import { balanceOf, withAccount } from '../ledger/accounts.ts';
import type { LedgerTx } from '../ledger/header.ts';
import type { Network } from '../network/network.ts';
import type { QueuedTx } from '../ledger/history.ts';
import { isArchived, ledgerEntrySize, type StoredEntry } from '../ledger/ledger-state.ts';
import { eventsFee, nonRefundableFee, rentFee, type RentChange } from './fees.ts';
import { invoke, type InvokeOutcome } from './invoke.ts';
import { archivedIndices, parseEnvelope, sorobanData, sorobanOp, sorobanOpType, type ParsedTx } from './parse.ts';
import { afterLedger, chooseForLedger } from './queue.ts';
import { measure } from './resources.ts';
import {
  appliedResult,
  entryChanges,
  feeEvents,
  ledgerEntry,
  metaV4,
  type FeeBreakdown,
  type OpOutcome,
} from './results.ts';
import { recordTransaction } from './record.ts';

export type AppliedLedger = { txs: LedgerTx[]; fees: bigint; baseFee: bigint; inclusionFees: bigint[] };

/** A transaction whose fee was charged at the start of the ledger. */
type Charged = {
  q: QueuedTx;
  parsed: ParsedTx;
  data: xdr.SorobanTransactionData;
  /** The fee source's account id (LedgerKey base64). */
  payerId: string;
  upfront: bigint;
  feeProcessing: xdr.LedgerEntryChange[];
};

/** What an operation did, before the refund. */
type OpRun = {
  outcome: OpOutcome;
  refundable: bigint;
  rent: bigint;
  changes: xdr.LedgerEntryChange[];
  contractEvents: xdr.ContractEvent[];
  diagnostics: xdr.DiagnosticEvent[];
  returnValue: xdr.ScVal | null;
  commit?: () => void;
};

/** A transaction after its apply step, waiting for the refund. */
type Done = Charged & OpRun & { order: number; fee: FeeBreakdown; changesBefore: xdr.LedgerEntryChange[] };

export function applyLedger(net: Network, sequence: number, closeTime: number): AppliedLedger {
  const { included, baseFee } = chooseForLedger(net, sequence, closeTime);

  const charged: Charged[] = [];
  for (const q of included) {
    const c = chargeFee(net, q, sequence, baseFee);
    if (c) charged.push(c);
  }

  const stateSize = net.state.sorobanStateSize();
  const done: Done[] = [];
  for (const c of charged) {
    try {
      done.push(applyOne(net, c, sequence, closeTime, done.length + 1, stateSize));
    } catch (e) {
      // A devnet bug must not stop the ledger clock; the transaction is lost like a dropped one
      // and its fee given back.
      process.stderr.write(`devnet: could not apply ${c.q.hash}: ${e instanceof Error ? e.stack : String(e)}\n`);
      const account = net.state.get(c.payerId)!;
      net.state.set(c.payerId, {
        data: withAccount(account.data, { balance: balanceOf(account.data) + c.upfront }),
        lastModified: sequence,
      });
      c.q.submission.status = 'dropped';
    }
  }

  const txs: LedgerTx[] = [];
  const inclusionFees: bigint[] = [];
  let fees = 0n;
  for (const d of done) {
    const refund = d.upfront - d.fee.charged;
    const postTxApplyFeeProcessing: xdr.LedgerEntryChange[] = [];
    if (refund > 0n) {
      const before = net.state.get(d.payerId)!;
      const after: StoredEntry = {
        data: withAccount(before.data, { balance: balanceOf(before.data) + refund }),
        lastModified: sequence,
      };
      net.state.set(d.payerId, after);
      postTxApplyFeeProcessing.push(
        xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(before.data, before.lastModified)),
        xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(after.data, after.lastModified)),
      );
    }
    fees += d.fee.charged;
    // stellar-rpc feewindow.go IngestFees: feeCharged − the resource fees charged.
    inclusionFees.push(d.fee.charged - d.fee.nonRefundable - d.fee.refundable);
    const innerHash = d.q.inner ? Buffer.from(d.q.inner.hash, 'hex') : undefined;
    const result = appliedResult(d.fee.charged, d.outcome, innerHash);
    const meta = metaV4({
      success: d.outcome.success,
      changesBefore: d.changesBefore,
      changes: d.changes,
      events: d.contractEvents,
      returnValue: d.returnValue,
      txEvents: feeEvents(net.passphrase, d.q.feeSource, d.fee),
      diagnostics: d.diagnostics,
      fee: d.fee,
    });
    recordTransaction(net, d.q, {
      sequence,
      closeTime,
      order: d.order,
      result,
      meta,
      contractEvents: d.contractEvents,
      diagnostics: d.diagnostics,
      success: d.outcome.success,
    });
    txs.push({
      hash: d.q.hash,
      envelope: d.parsed.envelope,
      processing: new xdr.TransactionResultMetaV1({
        ext: xdr.ExtensionPoint.v0(),
        result: new xdr.TransactionResultPair({ transactionHash: Buffer.from(d.q.hash, 'hex'), result }),
        feeProcessing: d.feeProcessing,
        txApplyProcessing: meta,
        postTxApplyFeeProcessing,
      }),
    });
  }
  afterLedger(net, included, sequence, closeTime);
  return { txs, fees, baseFee, inclusionFees };
}

function chargeFee(net: Network, q: QueuedTx, sequence: number, baseFee: bigint): Charged | undefined {
  const payerId = keyId(accountKey(q.feeSource));
  const account = net.state.get(payerId);
  if (!account) {
    q.submission.status = 'expired';
    return undefined;
  }
  const parsed = parseEnvelope(q.envelopeXdr);
  const data = sorobanData(q.tx)!;
  // TransactionFrame::getFee(applying): resource fee + min(inclusion fee, base fee × operations).
  const inclusion = q.inclusionFee < baseFee * BigInt(q.numOps) ? q.inclusionFee : baseFee * BigInt(q.numOps);
  const upfront = data.resourceFee + (inclusion > 0n ? inclusion : 0n);
  const balance = balanceOf(account.data);
  const taken = upfront < balance ? upfront : balance;
  const after: StoredEntry = { data: withAccount(account.data, { balance: balance - taken }), lastModified: sequence };
  net.state.set(payerId, after);
  return {
    q,
    parsed,
    data,
    payerId,
    upfront: taken,
    feeProcessing: [
      xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(account.data, account.lastModified)),
      xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(after.data, after.lastModified)),
    ],
  };
}

function applyOne(
  net: Network,
  c: Charged,
  sequence: number,
  closeTime: number,
  order: number,
  stateSize: number,
): Done {
  const { q, data } = c;
  // The sequence bump of the (inner) source, in its own change set before the operation (processSeqNum).
  const sourceId = keyId(accountKey(q.source));
  const paid = net.state.get(sourceId)!;
  const bumped: StoredEntry = {
    data: withAccount(paid.data, { seqNum: q.seq, seqBump: { ledger: sequence, closeTime } }),
    lastModified: sequence,
  };
  net.state.set(sourceId, bumped);
  const changesBefore = [
    xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(paid.data, paid.lastModified)),
    xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(bumped.data, bumped.lastModified)),
  ];

  const res = data.resources;
  const nonRefundable = BigInt(
    nonRefundableFee(
      {
        instructions: res.instructions,
        diskReadEntries: q.resources[5],
        diskReadBytes: res.diskReadBytes,
        writeEntries: res.footprint.readWrite.length,
        writeBytes: res.writeBytes,
        txSizeBytes: Buffer.from(q.envelopeXdr, 'base64').length,
      },
      net.config,
    ),
  );
  const refundableBudget = data.resourceFee - nonRefundable;

  const opType = sorobanOpType(c.parsed);
  const run =
    opType === 'extendFootprintTtl'
      ? extendTtl(net, c, sequence, refundableBudget, stateSize)
      : opType === 'restoreFootprint'
        ? restoreFootprint(net, c, sequence, refundableBudget, stateSize)
        : invokeHostFunction(net, c, sequence, closeTime, refundableBudget, stateSize);
  if (run.outcome.success) run.commit?.();
  const refundable = run.outcome.success ? run.refundable : 0n;
  const rent = run.outcome.success ? run.rent : 0n;
  const inclusion = c.upfront - data.resourceFee;
  const total = (inclusion > 0n ? inclusion : 0n) + nonRefundable + refundable;
  const fee: FeeBreakdown = {
    upfront: c.upfront,
    charged: total < c.upfront ? total : c.upfront,
    nonRefundable,
    refundable,
    rent,
  };
  return { ...c, ...run, refundable, rent, order, fee, changesBefore };
}

const failed = (outcome: OpOutcome, diagnostics: xdr.DiagnosticEvent[] = []): OpRun => ({
  outcome,
  refundable: 0n,
  rent: 0n,
  changes: [],
  contractEvents: [],
  diagnostics,
  returnValue: null,
});

/** A diagnostic `error` event core adds (DiagnosticEventManager::pushError): topics [error, Error(type, code)]. */
function coreError(type: ErrorType, code: ErrorCode, message: string, args: xdr.ScVal[]): xdr.DiagnosticEvent {
  return new xdr.DiagnosticEvent({
    inSuccessfulContractCall: false,
    event: new xdr.ContractEvent({
      ext: xdr.ExtensionPoint.v0(),
      contractId: null,
      type: xdr.ContractEventType.diagnostic,
      body: xdr.ContractEventBody.v0(
        new xdr.ContractEventV0({
          topics: [sym('error'), xdr.ScVal.scvError(toScError(type, code))],
          data: args.length === 0 ? str(message) : xdr.ScVal.scvVec([str(message), ...args]),
        }),
      ),
    }),
  });
}

function invokeHostFunction(
  net: Network,
  c: Charged,
  sequence: number,
  closeTime: number,
  refundableBudget: bigint,
  stateSize: number,
): OpRun {
  const op = sorobanOp(c.parsed)!;
  const res = c.data.resources;
  const readOnly = res.footprint.readOnly;
  const readWrite = res.footprint.readWrite;
  // Faults are for the transactions under test, never for background traffic.
  if (!c.q.traffic && net.faults.take('fail-next'))
    return failed({ kind: 'invoke', success: false, code: 'invokeHostFunctionTrapped' });

  const storage = new StorageView(
    net.state,
    sequence,
    {
      kind: 'enforce',
      readOnly: new Set(readOnly.map(keyId)),
      readWrite: new Set(readWrite.map(keyId)),
    },
    sequence + net.config.minPersistentTtl - 1,
  );
  // Archived entries in the footprint (InvokeHostFunctionOpFrame addReads → handleArchivedEntry).
  const marked = new Set(archivedIndices(c.data));
  const footprint = [...readOnly.map((k) => ({ k, rw: -1 })), ...readWrite.map((k, i) => ({ k, rw: i }))];
  for (const { k, rw } of footprint) {
    const entry = net.state.get(keyId(k));
    if (!entry || !isArchived(entry, k, sequence)) continue;
    if (rw >= 0 && marked.has(rw)) {
      storage.restore(k);
      continue;
    }
    const diag =
      k.type === 'contractCode'
        ? coreError('Value', 'InvalidInput', 'trying to access an archived contract code entry', [
            xdr.ScVal.scvBytes(k.contractCode.hash.value),
          ])
        : coreError(
            'Value',
            'InvalidInput',
            'trying to access an archived contract data entry',
            k.type === 'contractData' ? [xdr.ScVal.scvAddress(k.contractData.contract), k.contractData.key] : [],
          );
    return failed({ kind: 'invoke', success: false, code: 'invokeHostFunctionEntryArchived' }, [diag]);
  }

  const out: InvokeOutcome = invoke({
    state: net.state,
    contracts: net.contracts,
    ledgerSeq: sequence,
    timestamp: BigInt(closeTime),
    networkId: net.networkId,
    source: op.source,
    hostFunction: op.hostFunction,
    authEntries: op.auth,
    authMode: 'enforce',
    access: { kind: 'enforce', readOnly: new Set(), readWrite: new Set() },
    config: net.config,
    storage,
  });
  const diagnostics = out.host.events.map(toDiagnosticEvent);
  if (out.error) return failed({ kind: 'invoke', success: false, code: 'invokeHostFunctionTrapped' }, diagnostics);
  const usage = measure(out);
  const rent = BigInt(rentFee(usage.rentChanges, sequence, stateSize, net.config));
  const refundable = BigInt(eventsFee(usage.eventBytes, net.config)) + rent;
  if (
    usage.instructions > res.instructions ||
    usage.writeBytes > res.writeBytes ||
    usage.diskReadBytes > res.diskReadBytes ||
    usage.eventBytes > net.config.txMaxContractEventsSizeBytes
  ) {
    return failed({ kind: 'invoke', success: false, code: 'invokeHostFunctionResourceLimitExceeded' }, diagnostics);
  }
  if (refundableBudget < refundable)
    return failed({ kind: 'invoke', success: false, code: 'invokeHostFunctionInsufficientRefundableFee' }, diagnostics);
  const contractEvents = out.host.events.filter((e) => e.kind === 'contract').map(toContractEvent);
  const returnValue = out.value!;
  return {
    outcome: { kind: 'invoke', success: true, returnValue, events: contractEvents },
    refundable,
    rent,
    changes: entryChanges(out.storage.changes(), new Set(out.storage.restoredKeys.keys())),
    contractEvents,
    diagnostics,
    returnValue,
    commit: () => out.storage.commit(),
  };
}

/**
 * ExtendFootprintTTLOpFrame apply: every read-only entry that is live gets live_until = ledger +
 * extendTo if that is later (archived and missing ones are skipped); the rent comes out of the
 * refundable fee. Only TTL entries change, so the operation meta has no entry changes here (the
 * devnet keeps TTLs beside the entries).
 */
function extendTtl(net: Network, c: Charged, sequence: number, refundableBudget: bigint, stateSize: number): OpRun {
  const extendTo = xdr.expectUnionVariant(c.parsed.ops[0].body, 'extendFootprintTtl').extendFootprintTtlOp.extendTo;
  const newLiveUntil = sequence + extendTo;
  const rentChanges: RentChange[] = [];
  const updates: [string, StoredEntry][] = [];
  for (const k of c.data.resources.footprint.readOnly) {
    const id = keyId(k);
    const entry = net.state.get(id);
    if (!entry || entry.liveUntil === undefined || entry.liveUntil < sequence) continue;
    if (entry.liveUntil >= newLiveUntil) continue;
    const size = ledgerEntrySize(entry);
    rentChanges.push({
      persistent: !isTemporary(k),
      code: k.type === 'contractCode',
      oldSize: size,
      newSize: size,
      oldLiveUntil: entry.liveUntil,
      newLiveUntil,
    });
    updates.push([id, { ...entry, liveUntil: newLiveUntil }]);
  }
  const rent = BigInt(rentFee(rentChanges, sequence, stateSize, net.config));
  if (refundableBudget < rent)
    return failed({ kind: 'extend', success: false, code: 'extendFootprintTtlInsufficientRefundableFee' });
  return {
    outcome: { kind: 'extend', success: true },
    refundable: rent,
    rent,
    changes: [],
    contractEvents: [],
    diagnostics: [],
    returnValue: null,
    commit: () => {
      for (const [id, e] of updates) net.state.set(id, e);
    },
  };
}

/**
 * RestoreFootprintOpFrame apply: every read-write entry that is archived gets live_until = ledger
 * + minPersistentTTL − 1 (live and missing ones are skipped), metering read and write bytes against
 * the declared ones; the rent of a new entry comes out of the refundable fee. Meta: RESTORED with
 * the entry as it was.
 */
function restoreFootprint(
  net: Network,
  c: Charged,
  sequence: number,
  refundableBudget: bigint,
  stateSize: number,
): OpRun {
  const res = c.data.resources;
  const restoredLiveUntil = sequence + net.config.minPersistentTtl - 1;
  const rentChanges: RentChange[] = [];
  const updates: [string, StoredEntry][] = [];
  const changes: xdr.LedgerEntryChange[] = [];
  let bytes = 0;
  for (const k of res.footprint.readWrite) {
    const id = keyId(k);
    const entry = net.state.get(id);
    if (!entry || !isArchived(entry, k, sequence)) continue;
    const size = ledgerEntrySize(entry);
    bytes += size;
    if (bytes > res.diskReadBytes || bytes > res.writeBytes) {
      return failed({ kind: 'restore', success: false, code: 'restoreFootprintResourceLimitExceeded' }, [
        coreError(
          'Budget',
          'ExceededLimit',
          `operation byte-${bytes > res.diskReadBytes ? 'read' : 'write'} resources exceeds amount specified`,
          [
            xdr.ScVal.scvU64(BigInt(bytes)),
            xdr.ScVal.scvU64(BigInt(bytes > res.diskReadBytes ? res.diskReadBytes : res.writeBytes)),
          ],
        ),
      ]);
    }
    rentChanges.push({
      persistent: true,
      code: k.type === 'contractCode',
      oldSize: 0,
      newSize: size,
      oldLiveUntil: 0,
      newLiveUntil: restoredLiveUntil,
    });
    updates.push([id, { ...entry, liveUntil: restoredLiveUntil }]);
    changes.push(xdr.LedgerEntryChange.ledgerEntryRestored(ledgerEntry(entry.data, entry.lastModified)));
  }
  const rent = BigInt(rentFee(rentChanges, sequence, stateSize, net.config));
  if (refundableBudget < rent)
    return failed({ kind: 'restore', success: false, code: 'restoreFootprintInsufficientRefundableFee' });
  return {
    outcome: { kind: 'restore', success: true },
    refundable: rent,
    rent,
    changes,
    contractEvents: [],
    diagnostics: [],
    returnValue: null,
    commit: () => {
      for (const [id, e] of updates) net.state.set(id, e);
    },
  };
}
