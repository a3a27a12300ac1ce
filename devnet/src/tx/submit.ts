// sendTransaction: stellar-core's admission checks (soroban-rpc-notes §3.2) and the
// queue (one transaction per source account). A rejection consumes nothing.
import { scValToNative, xdr } from '@stellar/stellar-sdk';
import { accountKey, isClassic, keyId } from '../ledger/keys.ts';
import { accountOf, balanceOf, MIN_BALANCE, seqOf } from '../ledger/accounts.ts';
import type { Network } from '../ledger/network.ts';
import type { QueuedTx, Submission } from '../ledger/history.ts';
import { BASE_FEE, exceedsLimits, nonRefundableFee } from './fees.ts';
import { contractCall } from './invoke.ts';
import { parseEnvelope, sorobanData, sorobanOp, timeBounds, type ParsedTx } from './parse.ts';
import { rejection, type TxCode } from './results.ts';
import { checkTxSignatures, txHash } from './signatures.ts';

export type SubmitOutcome =
  | { status: 'PENDING' | 'DUPLICATE' | 'TRY_AGAIN_LATER'; hash: string }
  | { status: 'ERROR'; hash: string; result: xdr.TransactionResult };

/** Throws if the envelope does not decode (the method answers -32602 invalid_xdr). */
export function submitTransaction(net: Network, envelopeXdr: string): SubmitOutcome {
  const parsed = parseEnvelope(envelopeXdr);
  const hashHex = txHash(net.networkId, parsed.tx).toString('hex');
  const outcome = admit(net, parsed, envelopeXdr, hashHex);
  return outcome;
}

function admit(net: Network, p: ParsedTx, envelopeXdr: string, hash: string): SubmitOutcome {
  const forced = net.faults.take('send');
  if (forced?.status === 'TRY_AGAIN_LATER') return { status: 'TRY_AGAIN_LATER', hash };
  if (forced?.status === 'ERROR') return { status: 'ERROR', hash, result: rejection('txInternalError', 0n) };

  if (net.bans.has(hash)) return { status: 'TRY_AGAIN_LATER', hash };
  const seq = p.tx.seqNum;
  const queued = net.queue.find((q) => q.source === p.source);
  if (queued?.hash === hash) return { status: 'DUPLICATE', hash };
  const data = sorobanData(p.tx);
  const resourceFee = data ? data.resourceFee : 0n;
  const fee = BigInt(p.tx.fee);
  const wouldCharge = resourceFee + BigInt(BASE_FEE);
  const error = (code: TxCode): SubmitOutcome => ({ status: 'ERROR', hash, result: rejection(code, wouldCharge) });
  if (queued) return queued.seq > seq ? error('txBadSeq') : { status: 'TRY_AGAIN_LATER', hash };

  if (p.envelope.type !== 'envelopeTypeTx') return error('txNotSupported');
  if (p.ops.length === 0) return error('txMissingOperation');
  const op = sorobanOp(p);
  if (p.ops.length > 1 || !data) return error('txMalformed');
  if (!op) return error('txNotSupported');
  if (p.tx.memo.type !== 'memoNone') return error('txSorobanInvalid');

  const res = data.resources;
  const footprint = [...res.footprint.readOnly, ...res.footprint.readWrite];
  const ids = new Set(footprint.map(keyId));
  const classic = footprint.filter(isClassic).length;
  const declared = {
    instructions: res.instructions,
    diskReadEntries: classic,
    diskReadBytes: res.diskReadBytes,
    writeEntries: res.footprint.readWrite.length,
    writeBytes: res.writeBytes,
    txSizeBytes: Buffer.from(envelopeXdr, 'base64').length,
  };
  if (exceedsLimits(declared, footprint.length)) return error('txSorobanInvalid');
  if (resourceFee > fee) return error('txSorobanInvalid');
  if (resourceFee < BigInt(nonRefundableFee(declared))) return error('txSorobanInvalid');
  if (ids.size !== footprint.length) return error('txSorobanInvalid');

  const { minTime, maxTime } = timeBounds(p.tx);
  const now = net.boundsTime(net.now());
  if (minTime > now) return error('txTooEarly');
  // Core refuses what would expire before it can close: now + 2 × the expected close time.
  const lookahead = 2 * Math.max(1, Math.round(net.ledgerMs / 1000));
  if (maxTime !== 0 && maxTime < now + lookahead) return error('txTooLate');
  if (fee - resourceFee < BigInt(BASE_FEE)) return error('txInsufficientFee');

  const account = net.state.get(keyId(accountKey(p.source)));
  if (!account) return error('txNoAccount');
  if (seq !== seqOf(account.data) + 1n) return error('txBadSeq');
  const sigs = checkTxSignatures(accountOf(account.data), Buffer.from(hash, 'hex'), p.signatures);
  if (sigs !== 'ok') return error(sigs);
  if (balanceOf(account.data) - MIN_BALANCE < fee) return error('txInsufficientBalance');

  enqueue(net, p, envelopeXdr, hash, seq, maxTime, op.hostFunction);
  return { status: 'PENDING', hash };
}

function enqueue(
  net: Network, p: ParsedTx, envelopeXdr: string, hash: string, seq: bigint, maxTime: number, fn: xdr.HostFunction,
): void {
  const call = contractCall(fn);
  const submission: Submission = {
    hash,
    source: p.source,
    function: call?.fn ?? fn.type,
    contract: call?.contract ?? '',
    args: (call?.args ?? []).map(nativeString),
    status: 'queued',
  };
  net.submissions.push(submission);
  if (net.faults.take('drop')) {
    // Accepted (PENDING) and then lost: never included, so NOT_FOUND for ever.
    submission.status = 'dropped';
    return;
  }
  const delay = net.faults.take('delay');
  const item: QueuedTx = {
    hash,
    tx: p.tx,
    envelopeXdr,
    source: p.source,
    seq,
    maxTime,
    includeAt: net.latest.sequence + 1 + (delay?.ledgers ?? 0),
    submission,
  };
  net.queue.push(item);
}

function nativeString(v: xdr.ScVal): string {
  const n: unknown = scValToNative(v);
  if (typeof n === 'string' || typeof n === 'bigint' || typeof n === 'number' || typeof n === 'boolean') return String(n);
  return JSON.stringify(n, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}
