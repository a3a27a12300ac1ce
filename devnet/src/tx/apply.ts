// Ledger close: include queued transactions in order. Inclusion consumes the
// sequence number and charges the fee even when the call then fails; execution
// enforces the declared footprint and resources against the state as it is now,
// which may differ from what the simulation saw.
import { xdr } from '@stellar/stellar-sdk';
import { toContractEvent, toDiagnosticEvent } from '../host/events.ts';
import { accountKey, isClassic, keyId } from '../ledger/keys.ts';
import { balanceOf, seqOf, withAccount } from '../ledger/accounts.ts';
import type { Network } from '../ledger/network.ts';
import type { QueuedTx } from '../ledger/history.ts';
import { BASE_FEE, nonRefundableFee, refundableFee } from './fees.ts';
import { invoke, type InvokeOutcome } from './invoke.ts';
import { sorobanData, sorobanOp, parseEnvelope } from './parse.ts';
import { measure } from './resources.ts';
import { entryChanges, failedResult, feeEvents, metaV4, successResult, type InvokeCode } from './results.ts';
import { recordTransaction } from './record.ts';

const MAX_TX_PER_LEDGER = 1000;
const BAN_LEDGERS = 10;

export function applyLedger(net: Network, sequence: number, closeTime: number): void {
  const waiting: QueuedTx[] = [];
  let order = 0;
  for (const q of net.queue) {
    if (q.maxTime !== 0 && net.boundsTime(closeTime) > q.maxTime) {
      // Past its upper time bound: never included; core bans the hash for a while.
      q.submission.status = 'expired';
      net.bans.set(q.hash, sequence + BAN_LEDGERS);
    } else if (sequence < q.includeAt || order >= MAX_TX_PER_LEDGER) {
      waiting.push(q);
    } else {
      order += 1;
      try {
        applyOne(net, q, sequence, closeTime, order);
      } catch (e) {
        // A devnet bug must not stop the ledger clock; the transaction is lost like a dropped one.
        process.stderr.write(`devnet: could not apply ${q.hash}: ${e instanceof Error ? e.stack : String(e)}\n`);
        q.submission.status = 'dropped';
        order -= 1;
      }
    }
  }
  net.queue = waiting;
}

function applyOne(net: Network, q: QueuedTx, sequence: number, closeTime: number, order: number): void {
  const accountId = keyId(accountKey(q.source));
  const account = net.state.get(accountId);
  if (!account || seqOf(account.data) + 1n !== q.seq) {
    q.submission.status = 'expired';
    return;
  }
  const parsed = parseEnvelope(q.envelopeXdr);
  const op = sorobanOp(parsed)!;
  const data = sorobanData(q.tx)!;
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
  const upfront = BigInt(BASE_FEE) + resourceFee;

  let out: InvokeOutcome | undefined;
  let failure: InvokeCode | undefined;
  let refundable = 0n;
  let rent = 0n;
  if (net.faults.take('fail-next')) {
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
  const charged = BigInt(BASE_FEE) + nonRefundable + refundable;
  const fee = { upfront, charged: charged < upfront ? charged : upfront, nonRefundable, refundable, rent };

  const changes = !failure && out ? out.storage.changes() : [];
  if (!failure && out) out.storage.commit();
  net.state.set(accountId, {
    data: withAccount(account.data, { balance: balanceOf(account.data) - fee.charged, seqNum: q.seq }),
    lastModified: sequence,
  });

  const contractEvents = failure || !out ? [] : out.host.events.filter((e) => e.kind === 'contract').map(toContractEvent);
  const diagnostics = out ? out.host.events.map(toDiagnosticEvent) : [];
  const returnValue = failure || !out?.value ? null : out.value;
  const result = failure ? failedResult(fee.charged, failure) : successResult(fee.charged, returnValue!, contractEvents);
  const meta = metaV4({
    success: !failure,
    changes: entryChanges(changes),
    events: contractEvents,
    returnValue,
    txEvents: feeEvents(net.passphrase, q.source, fee),
    diagnostics,
    fee,
  });
  recordTransaction(net, q, { sequence, closeTime, order, result, meta, contractEvents, diagnostics, success: !failure });
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
