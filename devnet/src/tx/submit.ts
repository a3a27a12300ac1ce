// sendTransaction: stellar-core's admission (HerderImpl::recvTransaction → TransactionQueue::tryAdd,
// soroban-rpc-notes §3.2) in core's order: the ban, the source's queued transaction (duplicate,
// older sequence, replace-by-fee), the queue's capacity (eviction by fee, or a refusal naming the
// fee that would do), then validity (TransactionFrame::commonValidPreSeqNum / commonValid, and for
// a fee bump FeeBumpTransactionFrame::checkValid around them), then the fee source's balance.
// A rejection consumes nothing.
import { scValToNative, type xdr } from '@stellar/stellar-sdk';
import { accountKey, isTemporary, keyId } from '../ledger/keys.ts';
import { accountOf, balanceOf, MIN_BALANCE, seqOf } from '../ledger/accounts.ts';
import type { Network } from '../network/network.ts';
import type { QueuedTx, Submission } from '../ledger/history.ts';
import { exceedsLimits, nonRefundableFee } from './fees.ts';
import { contractCall } from './invoke.ts';
import { innerEnvelope, parseEnvelope, sorobanData, sorobanOpType, type ParsedTx } from './parse.ts';
import { add, canAdd, minInclusionFee, queueFields, queuedFeesOf, upperBoundCloseTimeOffset } from './queue.ts';
import { appliedResult, innerRejection, rejection, type OpOutcome, type TxCode } from './results.ts';
import { checkTxSignatures, feeBumpHash, fullHash, txHash } from './signatures.ts';

export type SubmitOutcome =
  | { status: 'PENDING' | 'DUPLICATE' | 'TRY_AGAIN_LATER'; hash: string }
  | { status: 'ERROR'; hash: string; result: xdr.TransactionResult };

/** Throws if the envelope does not decode (the method answers -32602 invalid_xdr). */
export function submitTransaction(net: Network, envelopeXdr: string): SubmitOutcome {
  const parsed = parseEnvelope(envelopeXdr);
  const innerHash = txHash(net.networkId, parsed.tx);
  const hash = parsed.feeBump
    ? feeBumpHash(net.networkId, parsed.feeBump.tx).toString('hex')
    : innerHash.toString('hex');
  return admit(net, parsed, envelopeXdr, hash, innerHash);
}

function admit(net: Network, p: ParsedTx, envelopeXdr: string, hash: string, innerHash: Buffer): SubmitOutcome {
  const forced = net.faults.take('send');
  if (forced?.status === 'TRY_AGAIN_LATER') return { status: 'TRY_AGAIN_LATER', hash };
  if (forced?.status === 'ERROR') return { status: 'ERROR', hash, result: rejection('txInternalError', 0n) };

  const data = sorobanData(p.tx);
  const resourceFee = data?.resourceFee ?? 0n;
  const numOps = p.feeBump ? p.ops.length + 1 : Math.max(1, p.ops.length);
  // What a refusal reports as feeCharged: the resource fee plus the base fee per operation
  // (TransactionFrame::getFee with the ledger base fee, not applying).
  const wouldCharge = resourceFee + minInclusionFee(numOps);
  const outerError = (code: TxCode, feeCharged = wouldCharge): SubmitOutcome => ({
    status: 'ERROR',
    hash,
    result: rejection(code, feeCharged),
  });
  // The inner transaction's own checks; for a fee bump they fail as txFEE_BUMP_INNER_FAILED.
  const error = (code: TxCode): SubmitOutcome =>
    p.feeBump ? { status: 'ERROR', hash, result: innerRejection(innerHash, code, wouldCharge) } : outerError(code);

  // The devnet has no classic queue: a transaction that is not one Soroban operation with its
  // Soroban data is refused here, before the queue (core would validate it in the classic queue).
  if (p.ops.length === 0) return error('txMissingOperation');
  const opType = sorobanOpType(p);
  if (!opType) return error('txNotSupported');
  if (p.ops.length > 1 || !data) return error('txMalformed');

  const candidate: QueuedTx = {
    ...queueFields(p, envelopeXdr),
    hash,
    fullHash: fullHash(p.envelope),
    inner: p.feeBump ? { hash: innerHash.toString('hex'), fullHash: fullHash(innerEnvelope(p)) } : undefined,
    includeAt: net.latest.sequence + 1,
    age: 0,
    submission: undefined as unknown as Submission,
  };

  const queued = canAdd(net, candidate, p.feeBump !== undefined);
  switch (queued.kind) {
    case 'DUPLICATE':
    case 'TRY_AGAIN_LATER':
      return { status: queued.kind, hash };
    case 'ERROR':
      return queued.code === 'txBadSeq' ? error('txBadSeq') : outerError(queued.code, queued.feeCharged);
    default:
      break;
  }

  if (p.feeBump) {
    const refused = checkFeeBump(net, p, candidate, wouldCharge);
    if (refused) return { status: 'ERROR', hash, result: refused };
  }
  const invalid = checkInner(net, p, candidate, envelopeXdr, innerHash);
  if (invalid) return error(invalid);
  // The operation's own checks (OperationFrame::checkValid): txFAILED with the operation's code.
  const malformed = opMalformed(net, p);
  if (malformed)
    return { status: 'ERROR', hash, result: appliedResult(wouldCharge, malformed, p.feeBump ? innerHash : undefined) };

  // The fee source must cover this fee on top of what it owes for its other queued transactions
  // (a transaction this one replaces frees its fee when the fee source is the same).
  const payer = net.state.get(keyId(accountKey(candidate.feeSource)))!;
  const owed = queuedFeesOf(net, candidate.feeSource, queued.replaces);
  if (balanceOf(payer.data) - MIN_BALANCE - candidate.fullFee < owed) {
    return p.feeBump ? outerError('txInsufficientBalance') : error('txInsufficientBalance');
  }

  enqueue(net, p, candidate, queued);
  return { status: 'PENDING', hash };
}

/**
 * FeeBumpTransactionFrame::commonValidPreSeqNum / commonValid / checkValidImpl for the outer layer:
 * the outer inclusion fee covers the base fee for inner operations + 1, and per operation it is
 * at least the inner one's (else txINSUFFICIENT_FEE with the fee needed); a Soroban inner fee may
 * be below its resource fee (protocol ≥ 23); the fee source exists and signs at its low threshold;
 * it can pay the outer fee; every outer signature is used.
 */
function checkFeeBump(net: Network, p: ParsedTx, c: QueuedTx, wouldCharge: bigint): xdr.TransactionResult | undefined {
  const fb = p.feeBump!;
  const minOuter = minInclusionFee(c.numOps);
  if (c.inclusionFee < minOuter) return rejection('txInsufficientFee', wouldCharge);
  const innerInclusion = BigInt(p.tx.fee) - (sorobanData(p.tx)?.resourceFee ?? 0n);
  if (innerInclusion >= 0n) {
    const minInner = minInclusionFee(p.ops.length);
    const v1 = c.inclusionFee * minInner;
    const v2 = innerInclusion * minOuter;
    if (v1 < v2) return rejection('txInsufficientFee', (v2 + minInner - 1n) / minInner);
  }
  const feeSource = net.state.get(keyId(accountKey(fb.feeSource)));
  if (!feeSource) return rejection('txNoAccount', wouldCharge);
  const outerHash = feeBumpHash(net.networkId, fb.tx);
  const sigs = checkTxSignatures(accountOf(feeSource.data), outerHash, fb.signatures, 1);
  if (sigs === 'txBadAuth') return rejection('txBadAuth', wouldCharge);
  if (balanceOf(feeSource.data) - MIN_BALANCE < c.fullFee) return rejection('txInsufficientBalance', wouldCharge);
  if (sigs === 'txBadAuthExtra') return rejection('txBadAuthExtra', wouldCharge);
  return undefined;
}

/**
 * TransactionFrame::commonValidPreSeqNum and commonValid for the (inner) transaction, in core's
 * order. Inside a fee bump it runs with chargeFee = false: no inclusion-fee, resource-fee-above-fee
 * or balance check (protocol ≥ 23 lets a Soroban inner fee sit below its resource fee).
 */
function checkInner(
  net: Network,
  p: ParsedTx,
  c: QueuedTx,
  envelopeXdr: string,
  innerHash: Buffer,
): TxCode | undefined {
  const chargeFee = !p.feeBump;
  const data = sorobanData(p.tx)!;
  if (p.tx.memo.type !== 'memoNone' || p.tx.sourceAccount.type !== 'keyTypeEd25519') return 'txSorobanInvalid';
  const res = data.resources;
  const footprint = [...res.footprint.readOnly, ...res.footprint.readWrite];
  const declared = {
    instructions: res.instructions,
    diskReadEntries: c.resources[5],
    diskReadBytes: res.diskReadBytes,
    writeEntries: res.footprint.readWrite.length,
    writeBytes: res.writeBytes,
    txSizeBytes: Buffer.from(envelopeXdr, 'base64').length,
  };
  if (exceedsLimits(declared, footprint.length, net.config)) return 'txSorobanInvalid';
  if (chargeFee && data.resourceFee > BigInt(p.tx.fee)) return 'txSorobanInvalid';
  if (data.resourceFee < BigInt(nonRefundableFee(declared, net.config))) return 'txSorobanInvalid';
  if (new Set(footprint.map(keyId)).size !== footprint.length) return 'txSorobanInvalid';

  // Time and ledger bounds against the last closed ledger (TransactionFrame::isTooEarly /
  // isTooLate): minTime > its close time is too early; maxTime below its close time plus the upper
  // close-time offset (getUpperBoundCloseTimeOffset: 2 × 5 s + the time since that close) is too late.
  const lcl = net.latest;
  if (c.minTime !== 0 && c.minTime > lcl.closeTime) return 'txTooEarly';
  if (c.minLedger > lcl.sequence + 1) return 'txTooEarly';
  if (c.maxTime !== 0 && c.maxTime < lcl.closeTime + upperBoundCloseTimeOffset(net)) return 'txTooLate';
  if (c.maxLedger !== 0 && c.maxLedger <= lcl.sequence + 1) return 'txTooLate';
  if (chargeFee && c.inclusionFee < minInclusionFee(c.numOps)) return 'txInsufficientFee';

  const account = net.state.get(keyId(accountKey(p.source)));
  if (!account) return 'txNoAccount';
  if (c.seq !== seqOf(account.data) + 1n) return 'txBadSeq';
  const sigs = checkTxSignatures(accountOf(account.data), innerHash, p.signatures);
  if (sigs !== 'ok') return sigs;
  if (chargeFee && balanceOf(account.data) - MIN_BALANCE < c.fullFee) return 'txInsufficientBalance';
  return undefined;
}

/**
 * ExtendFootprintTTLOpFrame / RestoreFootprintOpFrame::doCheckValidForSoroban: extend needs an empty
 * read-write footprint, Soroban keys only and extendTo ≤ maxEntryTTL − 1; restore an empty
 * read-only footprint and persistent Soroban keys only. Else the operation is MALFORMED.
 */
function opMalformed(net: Network, p: ParsedTx): OpOutcome | undefined {
  const fp = sorobanData(p.tx)!.resources.footprint;
  const body = p.ops[0].body;
  if (body.type === 'extendFootprintTtl') {
    const bad =
      fp.readWrite.length > 0 ||
      fp.readOnly.some((k) => k.type !== 'contractData' && k.type !== 'contractCode') ||
      body.extendFootprintTtlOp.extendTo > net.config.maxEntryTtl - 1;
    return bad ? { kind: 'extend', success: false, code: 'extendFootprintTtlMalformed' } : undefined;
  }
  if (body.type === 'restoreFootprint') {
    const bad =
      fp.readOnly.length > 0 ||
      fp.readWrite.some((k) => (k.type !== 'contractData' && k.type !== 'contractCode') || isTemporary(k));
    return bad ? { kind: 'restore', success: false, code: 'restoreFootprintMalformed' } : undefined;
  }
  return undefined;
}

function enqueue(net: Network, p: ParsedTx, c: QueuedTx, ok: Extract<ReturnType<typeof canAdd>, { kind: 'ok' }>): void {
  const op = p.ops[0].body;
  const call = op.type === 'invokeHostFunction' ? contractCall(op.invokeHostFunctionOp.hostFunction) : undefined;
  const submission: Submission = {
    hash: c.hash,
    source: p.source,
    function: call?.fn ?? (op.type === 'invokeHostFunction' ? op.invokeHostFunctionOp.hostFunction.type : op.type),
    contract: call?.contract ?? '',
    args: (call?.args ?? []).map(nativeString),
    status: 'queued',
    ...(p.feeBump && { feeBump: { feeSource: p.feeBump.feeSource, innerHash: c.inner!.hash } }),
  };
  net.submissions.push(submission);
  if (net.faults.take('drop')) {
    // Accepted (PENDING) and then lost: never included, so NOT_FOUND for ever.
    submission.status = 'dropped';
    return;
  }
  const delay = net.faults.take('delay');
  add(net, { ...c, includeAt: net.latest.sequence + 1 + (delay?.ledgers ?? 0), submission }, ok);
}

function nativeString(v: xdr.ScVal): string {
  const n: unknown = scValToNative(v);
  if (typeof n === 'string' || typeof n === 'bigint' || typeof n === 'number' || typeof n === 'boolean')
    return String(n);
  return JSON.stringify(n, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}
