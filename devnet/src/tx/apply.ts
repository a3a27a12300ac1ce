// Ledger close, in stellar-core's order for protocol ≥ 23 (LedgerManagerImpl::applyLedger):
// 1. fee processing for every included transaction, in apply order: the inclusion fee plus the
//    whole declared resource fee is charged up front (TransactionFrame::processFeeSeqNum);
// 2. each transaction applies: the sequence-number bump first (txChangesBefore,
//    TransactionFrame::processSeqNum), then the host function against the state as it is now,
//    enforcing the declared footprint and resources; a failure still consumes the sequence;
// 3. after the whole set, each Soroban transaction's unused refundable fee is refunded
//    (TransactionFrame::processPostTxSetApply → postTxApplyFeeProcessing, fee event stage
//    AFTER_ALL_TXS since protocol 23).
import { xdr } from '@stellar/stellar-sdk';
import { toContractEvent, toDiagnosticEvent } from '../host/events.ts';
import { accountKey, isClassic, keyId } from '../ledger/keys.ts';
import { balanceOf, seqOf, withAccount } from '../ledger/accounts.ts';
import type { LedgerTx } from '../ledger/header.ts';
import type { Network } from '../ledger/network.ts';
import type { QueuedTx } from '../ledger/history.ts';
import type { StoredEntry } from '../ledger/ledger-state.ts';
import { BASE_FEE, nonRefundableFee, refundableFee } from './fees.ts';
import { invoke, type InvokeOutcome } from './invoke.ts';
import { sorobanData, sorobanOp, parseEnvelope, type ParsedTx, type SorobanOp } from './parse.ts';
import { measure } from './resources.ts';
import {
  entryChanges, failedResult, feeEvents, ledgerEntry, metaV4, successResult, type FeeBreakdown, type InvokeCode,
} from './results.ts';
import { recordTransaction } from './record.ts';

const MAX_TX_PER_LEDGER = 1000;
const BAN_LEDGERS = 10;

export type AppliedLedger = { txs: LedgerTx[]; fees: bigint };

/** A transaction whose fee was charged at the start of the ledger. */
type Charged = {
  q: QueuedTx;
  parsed: ParsedTx;
  op: SorobanOp;
  data: xdr.SorobanTransactionData;
  accountId: string;
  upfront: bigint;
  feeProcessing: xdr.LedgerEntryChange[];
};

/** A transaction after its apply step, waiting for the refund. */
type Done = Charged & {
  order: number;
  success: boolean;
  result: (charged: bigint) => xdr.TransactionResult;
  fee: FeeBreakdown;
  changesBefore: xdr.LedgerEntryChange[];
  changes: xdr.LedgerEntryChange[];
  contractEvents: xdr.ContractEvent[];
  diagnostics: xdr.DiagnosticEvent[];
  returnValue: xdr.ScVal | null;
};

export function applyLedger(net: Network, sequence: number, closeTime: number): AppliedLedger {
  const waiting: QueuedTx[] = [];
  const included: QueuedTx[] = [];
  for (const q of net.queue) {
    if (q.maxTime !== 0 && net.boundsTime(closeTime) > q.maxTime) {
      // Past its upper time bound: never included; core bans the hash for a while.
      q.submission.status = 'expired';
      net.bans.set(q.hash, sequence + BAN_LEDGERS);
    } else if (sequence < q.includeAt || included.length >= MAX_TX_PER_LEDGER) {
      waiting.push(q);
    } else {
      included.push(q);
    }
  }
  net.queue = waiting;

  const charged: Charged[] = [];
  for (const q of included) {
    const c = chargeFee(net, q, sequence);
    if (c) charged.push(c);
  }

  const done: Done[] = [];
  for (const c of charged) {
    try {
      done.push(applyOne(net, c, sequence, closeTime, done.length + 1));
    } catch (e) {
      // A devnet bug must not stop the ledger clock; the transaction is lost like a dropped one
      // and its fee given back.
      process.stderr.write(`devnet: could not apply ${c.q.hash}: ${e instanceof Error ? e.stack : String(e)}\n`);
      const account = net.state.get(c.accountId)!;
      net.state.set(c.accountId, { data: withAccount(account.data, { balance: balanceOf(account.data) + c.upfront }), lastModified: sequence });
      c.q.submission.status = 'dropped';
    }
  }

  const txs: LedgerTx[] = [];
  let fees = 0n;
  for (const d of done) {
    const refund = d.upfront - d.fee.charged;
    const postTxApplyFeeProcessing: xdr.LedgerEntryChange[] = [];
    if (refund > 0n) {
      const before = net.state.get(d.accountId)!;
      const after: StoredEntry = { data: withAccount(before.data, { balance: balanceOf(before.data) + refund }), lastModified: sequence };
      net.state.set(d.accountId, after);
      postTxApplyFeeProcessing.push(
        xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(before.data, before.lastModified)),
        xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(after.data, after.lastModified)),
      );
    }
    fees += d.fee.charged;
    const result = d.result(d.fee.charged);
    const meta = metaV4({
      success: d.success,
      changesBefore: d.changesBefore,
      changes: d.changes,
      events: d.contractEvents,
      returnValue: d.returnValue,
      txEvents: feeEvents(net.passphrase, d.q.source, d.fee),
      diagnostics: d.diagnostics,
      fee: d.fee,
    });
    recordTransaction(net, d.q, {
      sequence, closeTime, order: d.order, result, meta, contractEvents: d.contractEvents, diagnostics: d.diagnostics, success: d.success,
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
  return { txs, fees };
}

function chargeFee(net: Network, q: QueuedTx, sequence: number): Charged | undefined {
  const accountId = keyId(accountKey(q.source));
  const account = net.state.get(accountId);
  if (!account || seqOf(account.data) + 1n !== q.seq) {
    q.submission.status = 'expired';
    return undefined;
  }
  const parsed = parseEnvelope(q.envelopeXdr);
  const op = sorobanOp(parsed)!;
  const data = sorobanData(q.tx)!;
  const upfront = BigInt(BASE_FEE) + data.resourceFee;
  const balance = balanceOf(account.data);
  const taken = upfront < balance ? upfront : balance;
  const after: StoredEntry = { data: withAccount(account.data, { balance: balance - taken }), lastModified: sequence };
  net.state.set(accountId, after);
  return {
    q, parsed, op, data, accountId, upfront: taken,
    feeProcessing: [
      xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(account.data, account.lastModified)),
      xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(after.data, after.lastModified)),
    ],
  };
}

function applyOne(net: Network, c: Charged, sequence: number, closeTime: number, order: number): Done {
  const { q, op, data } = c;
  // The sequence bump, in its own change set before the operation (processSeqNum).
  const paid = net.state.get(c.accountId)!;
  const bumped: StoredEntry = {
    data: withAccount(paid.data, { seqNum: q.seq, seqBump: { ledger: sequence, closeTime } }),
    lastModified: sequence,
  };
  net.state.set(c.accountId, bumped);
  const changesBefore = [
    xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(paid.data, paid.lastModified)),
    xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(bumped.data, bumped.lastModified)),
  ];

  const res = data.resources;
  const readOnly = res.footprint.readOnly;
  const readWrite = res.footprint.readWrite;
  const resourceFee = data.resourceFee;
  const nonRefundable = BigInt(nonRefundableFee({
    instructions: res.instructions,
    diskReadEntries: [...readOnly, ...readWrite].filter(isClassic).length,
    diskReadBytes: res.diskReadBytes,
    writeEntries: readWrite.length,
    writeBytes: res.writeBytes,
    txSizeBytes: Buffer.from(q.envelopeXdr, 'base64').length,
  }));

  let out: InvokeOutcome | undefined;
  let failure: InvokeCode | undefined;
  let refundable = 0n;
  let rent = 0n;
  // Faults are for the transactions under test, never for background traffic.
  if (!q.traffic && net.faults.take('fail-next')) {
    failure = 'invokeHostFunctionTrapped';
  } else {
    out = invoke({
      state: net.state,
      contracts: net.contracts,
      ledgerSeq: sequence,
      timestamp: BigInt(closeTime),
      networkId: net.networkId,
      source: op.source,
      hostFunction: op.hostFunction,
      authEntries: op.auth,
      authMode: 'enforce',
      access: { kind: 'enforce', readOnly: new Set(readOnly.map(keyId)), readWrite: new Set(readWrite.map(keyId)) },
    });
    if (out.error) {
      failure = 'invokeHostFunctionTrapped';
    } else {
      const usage = measure(out, net.state, sequence);
      rent = BigInt(refundableFee(0, usage.created));
      refundable = BigInt(refundableFee(usage.eventBytes, usage.created));
      if (usage.instructions > res.instructions || usage.writeBytes > res.writeBytes || usage.diskReadBytes > res.diskReadBytes) {
        failure = 'invokeHostFunctionResourceLimitExceeded';
      } else if (resourceFee - nonRefundable < refundable) {
        failure = 'invokeHostFunctionInsufficientRefundableFee';
      }
    }
  }
  if (failure) refundable = rent = 0n;
  const total = BigInt(BASE_FEE) + nonRefundable + refundable;
  const fee: FeeBreakdown = { upfront: c.upfront, charged: total < c.upfront ? total : c.upfront, nonRefundable, refundable, rent };

  const storageChanges = !failure && out ? out.storage.changes() : [];
  if (!failure && out) out.storage.commit();

  const contractEvents = failure || !out ? [] : out.host.events.filter((e) => e.kind === 'contract').map(toContractEvent);
  const diagnostics = out ? out.host.events.map(toDiagnosticEvent) : [];
  const returnValue = failure || !out?.value ? null : out.value;
  return {
    ...c,
    order,
    success: !failure,
    result: (feeCharged) => (failure ? failedResult(feeCharged, failure) : successResult(feeCharged, returnValue!, contractEvents)),
    fee,
    changesBefore,
    changes: entryChanges(storageChanges),
    contractEvents,
    diagnostics,
    returnValue,
  };
}

export type Applied = {
  sequence: number;
  closeTime: number;
  order: number;
  result: xdr.TransactionResult;
  meta: xdr.TransactionMeta;
  contractEvents: xdr.ContractEvent[];
  diagnostics: xdr.DiagnosticEvent[];
  success: boolean;
};
