// TransactionResult and TransactionMeta v4 as core writes them since protocol 23,
// so that the SDK's getTransaction parser finds what it expects.
import { Asset, hash, StrKey, xdr } from '@stellar/stellar-sdk';
import type { EntryChange } from '../host/storage-view.ts';
import { addr, i128, sym } from '../host/scval.ts';

export type TxCode =
  | 'txBadSeq' | 'txBadAuth' | 'txBadAuthExtra' | 'txTooEarly' | 'txTooLate' | 'txMissingOperation'
  | 'txInsufficientBalance' | 'txNoAccount' | 'txInsufficientFee' | 'txInternalError'
  | 'txNotSupported' | 'txMalformed' | 'txSorobanInvalid';

export type InvokeCode =
  | 'invokeHostFunctionTrapped'
  | 'invokeHostFunctionResourceLimitExceeded'
  | 'invokeHostFunctionInsufficientRefundableFee';

function result(feeCharged: bigint, res: xdr.TransactionResultResult): xdr.TransactionResult {
  return new xdr.TransactionResult({ feeCharged, result: res, ext: xdr.TransactionResultExt.v0() });
}

/** A rejection at submission (sendTransaction ERROR): nothing charged, feeCharged says what would have been. */
export function rejection(code: TxCode, feeCharged: bigint): xdr.TransactionResult {
  const make = (xdr.TransactionResultResult as unknown as Record<TxCode, () => xdr.TransactionResultResult>)[code];
  return result(feeCharged, make.call(xdr.TransactionResultResult));
}

export function successResult(feeCharged: bigint, returnValue: xdr.ScVal, events: xdr.ContractEvent[]): xdr.TransactionResult {
  const preimage = new xdr.InvokeHostFunctionSuccessPreImage({ returnValue, events });
  const op = xdr.OperationResult.opInner(
    xdr.OperationResultTr.invokeHostFunction(
      xdr.InvokeHostFunctionResult.invokeHostFunctionSuccess(hash(preimage.toXdr())),
    ),
  );
  return result(feeCharged, xdr.TransactionResultResult.txSuccess([op]));
}

export function failedResult(feeCharged: bigint, code: InvokeCode): xdr.TransactionResult {
  const make = (xdr.InvokeHostFunctionResult as unknown as Record<InvokeCode, () => xdr.InvokeHostFunctionResult>)[code];
  const op = xdr.OperationResult.opInner(xdr.OperationResultTr.invokeHostFunction(make.call(xdr.InvokeHostFunctionResult)));
  return result(feeCharged, xdr.TransactionResultResult.txFailed([op]));
}

export function ledgerEntry(data: xdr.LedgerEntryData, lastModified: number): xdr.LedgerEntry {
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: lastModified, data, ext: xdr.LedgerEntryExt.v0() });
}

export function entryChanges(changes: EntryChange[]): xdr.LedgerEntryChange[] {
  const out: xdr.LedgerEntryChange[] = [];
  for (const c of changes) {
    if (c.before) out.push(xdr.LedgerEntryChange.ledgerEntryState(ledgerEntry(c.before.data, c.before.lastModified)));
    if (!c.after) out.push(xdr.LedgerEntryChange.ledgerEntryRemoved(c.key));
    else if (c.before) out.push(xdr.LedgerEntryChange.ledgerEntryUpdated(ledgerEntry(c.after.data, c.after.lastModified)));
    else out.push(xdr.LedgerEntryChange.ledgerEntryCreated(ledgerEntry(c.after.data, c.after.lastModified)));
  }
  return out;
}

export type FeeBreakdown = { upfront: bigint; charged: bigint; nonRefundable: bigint; refundable: bigint; rent: bigint };

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
      body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics: [sym('fee'), addr(source)], data: i128(amount) })),
    });
  const out: xdr.TransactionEvent[] = [];
  if (fee.upfront !== 0n) {
    out.push(new xdr.TransactionEvent({ stage: xdr.TransactionEventStage.transactionEventStageBeforeAllTxs, event: event(fee.upfront) }));
  }
  if (fee.charged !== fee.upfront) {
    out.push(new xdr.TransactionEvent({ stage: xdr.TransactionEventStage.transactionEventStageAfterAllTxs, event: event(fee.charged - fee.upfront) }));
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
