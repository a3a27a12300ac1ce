// TransactionResult and TransactionMeta v4 as core writes them since protocol 23,
// so that the SDK's getTransaction parser finds what it expects.
import { Asset, hash, StrKey, xdr } from '@stellar/stellar-sdk';
import type { EntryChange } from '../host/storage-view.ts';
import { addr, i128, sym } from '../host/scval.ts';

export type TxCode =
  | 'txBadSeq'
  | 'txBadAuth'
  | 'txBadAuthExtra'
  | 'txTooEarly'
  | 'txTooLate'
  | 'txMissingOperation'
  | 'txInsufficientBalance'
  | 'txNoAccount'
  | 'txInsufficientFee'
  | 'txInternalError'
  | 'txNotSupported'
  | 'txMalformed'
  | 'txSorobanInvalid';

export type InvokeCode =
  | 'invokeHostFunctionTrapped'
  | 'invokeHostFunctionResourceLimitExceeded'
  | 'invokeHostFunctionEntryArchived'
  | 'invokeHostFunctionInsufficientRefundableFee';

export type ExtendCode =
  | 'extendFootprintTtlMalformed'
  | 'extendFootprintTtlResourceLimitExceeded'
  | 'extendFootprintTtlInsufficientRefundableFee';
export type RestoreCode =
  | 'restoreFootprintMalformed'
  | 'restoreFootprintResourceLimitExceeded'
  | 'restoreFootprintInsufficientRefundableFee';

function result(feeCharged: bigint, res: xdr.TransactionResultResult): xdr.TransactionResult {
  return new xdr.TransactionResult({ feeCharged, result: res, ext: xdr.TransactionResultExt.v0() });
}

const call = <T>(owner: unknown, name: string): T => (owner as Record<string, () => T>)[name].call(owner);

/** A rejection at submission (sendTransaction ERROR): nothing charged, feeCharged says what would have been. */
export function rejection(code: TxCode, feeCharged: bigint): xdr.TransactionResult {
  return result(feeCharged, call(xdr.TransactionResultResult, code));
}

/**
 * A fee bump refused because of its inner transaction (FeeBumpMutableTransactionResult::
 * setInnermostError): txFEE_BUMP_INNER_FAILED carrying the inner hash and code, inner fee 0.
 */
export function innerRejection(innerHash: Buffer, code: TxCode, feeCharged: bigint): xdr.TransactionResult {
  const inner = new xdr.InnerTransactionResult({
    feeCharged: 0n,
    result: call(xdr.InnerTransactionResultResult, code),
    ext: xdr.InnerTransactionResultExt.v0(),
  });
  return result(
    feeCharged,
    xdr.TransactionResultResult.txFeeBumpInnerFailed(
      new xdr.InnerTransactionResultPair({ transactionHash: innerHash, result: inner }),
    ),
  );
}

/** The one operation's result of an applied Soroban transaction. */
export type OpOutcome =
  | { kind: 'invoke'; success: true; returnValue: xdr.ScVal; events: xdr.ContractEvent[] }
  | { kind: 'invoke'; success: false; code: InvokeCode }
  | { kind: 'extend'; success: true }
  | { kind: 'extend'; success: false; code: ExtendCode }
  | { kind: 'restore'; success: true }
  | { kind: 'restore'; success: false; code: RestoreCode };

function opResult(o: OpOutcome): xdr.OperationResult {
  let tr: xdr.OperationResultTr;
  if (o.kind === 'invoke') {
    tr = xdr.OperationResultTr.invokeHostFunction(
      o.success
        ? xdr.InvokeHostFunctionResult.invokeHostFunctionSuccess(
            hash(new xdr.InvokeHostFunctionSuccessPreImage({ returnValue: o.returnValue, events: o.events }).toXdr()),
          )
        : call(xdr.InvokeHostFunctionResult, o.code),
    );
  } else if (o.kind === 'extend') {
    tr = xdr.OperationResultTr.extendFootprintTtl(
      call(xdr.ExtendFootprintTtlResult, o.success ? 'extendFootprintTtlSuccess' : o.code),
    );
  } else {
    tr = xdr.OperationResultTr.restoreFootprint(
      call(xdr.RestoreFootprintResult, o.success ? 'restoreFootprintSuccess' : o.code),
    );
  }
  return xdr.OperationResult.opInner(tr);
}

/**
 * The result of an applied transaction: txSUCCESS / txFAILED with the operation result; for a fee
 * bump txFEE_BUMP_INNER_SUCCESS / txFEE_BUMP_INNER_FAILED around the inner transaction's result,
 * whose own feeCharged is 0 since protocol 25 (FeeBumpTransactionFrame::processFeeSeqNum,
 * FeeBumpMutableTransactionResult).
 */
export function appliedResult(feeCharged: bigint, o: OpOutcome, innerHash?: Buffer): xdr.TransactionResult {
  const ops = [opResult(o)];
  if (!innerHash)
    return result(
      feeCharged,
      o.success ? xdr.TransactionResultResult.txSuccess(ops) : xdr.TransactionResultResult.txFailed(ops),
    );
  const inner = new xdr.InnerTransactionResult({
    feeCharged: 0n,
    result: o.success
      ? xdr.InnerTransactionResultResult.txSuccess(ops)
      : xdr.InnerTransactionResultResult.txFailed(ops),
    ext: xdr.InnerTransactionResultExt.v0(),
  });
  const pair = new xdr.InnerTransactionResultPair({ transactionHash: innerHash, result: inner });
  return result(
    feeCharged,
    o.success
      ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(pair)
      : xdr.TransactionResultResult.txFeeBumpInnerFailed(pair),
  );
}

export function successResult(
  feeCharged: bigint,
  returnValue: xdr.ScVal,
  events: xdr.ContractEvent[],
): xdr.TransactionResult {
  return appliedResult(feeCharged, { kind: 'invoke', success: true, returnValue, events });
}

export function failedResult(feeCharged: bigint, code: InvokeCode): xdr.TransactionResult {
  return appliedResult(feeCharged, { kind: 'invoke', success: false, code });
}

export function ledgerEntry(data: xdr.LedgerEntryData, lastModified: number): xdr.LedgerEntry {
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: lastModified, data, ext: xdr.LedgerEntryExt.v0() });
}

/**
 * Operation meta changes. A restored entry (TransactionMeta.cpp processOpLedgerEntryChanges, entry
 * still in the live bucket list): RESTORED with its old value at the new lastModified, then
 * UPDATED when the call also changed it; restored by a RestoreFootprint (`restoreOp`): RESTORED
 * with its old value and old lastModified.
 */
export function entryChanges(
  changes: EntryChange[],
  restored: ReadonlySet<string> = new Set(),
  restoreOp = false,
): xdr.LedgerEntryChange[] {
  const out: xdr.LedgerEntryChange[] = [];
  for (const c of changes) {
    if (c.before && restored.has(c.id)) {
      out.push(
        xdr.LedgerEntryChange.ledgerEntryRestored(
          ledgerEntry(
            c.before.data,
            restoreOp ? c.before.lastModified : (c.after?.lastModified ?? c.before.lastModified),
          ),
        ),
      );
      if (!c.after) out.push(xdr.LedgerEntryChange.ledgerEntryRemoved(c.key));
      else if (!sameData(c.before.data, c.after.data))
        out.push(xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(c.after.data, c.after.lastModified)));
      continue;
    }
    if (c.before) out.push(xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(c.before.data, c.before.lastModified)));
    if (!c.after) out.push(xdr.LedgerEntryChange.ledgerEntryRemoved(c.key));
    else if (c.before)
      out.push(xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(c.after.data, c.after.lastModified)));
    else out.push(xdr.LedgerEntryChange.ledgerEntryCreated(ledgerEntry(c.after.data, c.after.lastModified)));
  }
  return out;
}

const sameData = (a: xdr.LedgerEntryData, b: xdr.LedgerEntryData) =>
  a === b || Buffer.from(a.toXdr()).equals(Buffer.from(b.toXdr()));

export type FeeBreakdown = {
  upfront: bigint;
  charged: bigint;
  nonRefundable: bigint;
  refundable: bigint;
  rent: bigint;
};

/**
 * The `fee` events of the native asset contract (stellar-core TxEventManager::newFeeEvent): the
 * up-front charge at stage BEFORE_ALL_TXS, the refund as a negative amount at AFTER_ALL_TXS (the
 * refund happens after the whole set since protocol 23, TransactionFrame::processRefund); a zero
 * amount is not emitted.
 */
export function feeEvents(passphrase: string, source: string, fee: FeeBreakdown): xdr.TransactionEvent[] {
  const xlm = new xdr.ContractId(StrKey.decodeContract(Asset.native().contractId(passphrase)));
  const event = (amount: bigint) =>
    new xdr.ContractEvent({
      ext: xdr.ExtensionPoint.v0(),
      contractId: xlm,
      type: xdr.ContractEventType.contract,
      body: xdr.ContractEventBody.v0(
        new xdr.ContractEventV0({ topics: [sym('fee'), addr(source)], data: i128(amount) }),
      ),
    });
  const out: xdr.TransactionEvent[] = [];
  if (fee.upfront !== 0n) {
    out.push(
      new xdr.TransactionEvent({
        stage: xdr.TransactionEventStage.transactionEventStageBeforeAllTxs,
        event: event(fee.upfront),
      }),
    );
  }
  if (fee.charged !== fee.upfront) {
    out.push(
      new xdr.TransactionEvent({
        stage: xdr.TransactionEventStage.transactionEventStageAfterAllTxs,
        event: event(fee.charged - fee.upfront),
      }),
    );
  }
  return out;
}

export function metaV4(opts: {
  success: boolean;
  /** The source account's sequence-number bump. */
  changesBefore: xdr.LedgerEntryChange[];
  changes: xdr.LedgerEntryChange[];
  events: xdr.ContractEvent[];
  returnValue: xdr.ScVal | null;
  txEvents: xdr.TransactionEvent[];
  diagnostics: xdr.DiagnosticEvent[];
  fee: FeeBreakdown;
}): xdr.TransactionMeta {
  const sorobanExt = xdr.SorobanTransactionMetaExt.v1(
    new xdr.SorobanTransactionMetaExtV1({
      ext: xdr.ExtensionPoint.v0(),
      totalNonRefundableResourceFeeCharged: opts.fee.nonRefundable,
      totalRefundableResourceFeeCharged: opts.fee.refundable,
      rentFeeCharged: opts.fee.rent,
    }),
  );
  return xdr.TransactionMeta.v4(
    new xdr.TransactionMetaV4({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: opts.changesBefore,
      // A failed transaction leaves no operation meta: its changes were rolled back.
      operations: opts.success
        ? [new xdr.OperationMetaV2({ ext: xdr.ExtensionPoint.v0(), changes: opts.changes, events: opts.events })]
        : [],
      txChangesAfter: [],
      sorobanMeta: new xdr.SorobanTransactionMetaV2({ ext: sorobanExt, returnValue: opts.returnValue }),
      events: opts.txEvents,
      diagnosticEvents: opts.diagnostics,
    }),
  );
}
