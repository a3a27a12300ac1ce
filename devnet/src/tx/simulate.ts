// simulateTransaction: run the call against the last closed ledger in recording mode and report
// footprint, resources, fee, auth, return value and events, or the host error text, as
// stellar-rpc's preflight does (cmd/stellar-rpc/lib/preflight/src/shared.rs over rs-soroban-env
// soroban-simulation/src/simulation.rs):
// - InvokeHostFunction (simulate_invoke_host_function_op): archived persistent entries the call
//   touches are auto-restored — put in the read-write footprint, listed in SorobanTransactionData
//   ext v1 `archivedSorobanEntries`, read from disk and rented as new entries, so the resource fee
//   is higher (protocol ≥ 23; no restorePreamble for invocations);
// - ExtendFootprintTTL (simulate_extend_ttl_op over AutoRestoringSnapshotSource): the read-only
//   keys whose TTL would grow, rent only; archived ones are treated as restored and a
//   `restorePreamble` carries the RestoreFootprint they need first;
// - RestoreFootprint (simulate_restore_op): the archived read-write keys, read and written, rented
//   as new entries.
// Resource adjustments (SimulationAdjustmentConfig::default_adjustment): instructions
// max(+50,000 (or the leeway), ×1.04), transaction size ×1.1 + 500, refundable fee ×1.15.
import { xdr } from '@stellar/stellar-sdk';
import { formatHostErrorText } from '../host/display.ts';
import { toDiagnosticEvent } from '../host/events.ts';
import { COST } from '../host/invocation.ts';
import type { Network } from '../network/network.ts';
import { isClassic, isTemporary, keyId } from '../ledger/keys.ts';
import { eventsFee, nonRefundableFee, rentFee, type RentChange } from './fees.ts';
import { invoke } from './invoke.ts';
import { parseEnvelope, sorobanData, sorobanOp, sorobanOpType, type ParsedTx } from './parse.ts';
import { measure } from './resources.ts';
import { ledgerEntry } from './results.ts';
import { entryBase64, isArchived, ledgerEntrySize, type StoredEntry } from '../ledger/ledger-state.ts';

const asLedgerEntry = (e: StoredEntry) => ledgerEntry(e.data, e.lastModified);

export type SimulateParams = {
  transaction?: unknown;
  authMode?: unknown;
  resourceConfig?: { instructionLeeway?: unknown };
  /** RPC ≥ 27.1: record CAP-71 ADDRESS_V2 credentials. SDK 17 always sends true, older SDKs never. */
  useUpgradedAuth?: unknown;
};

const AUTH_MODES = ['', 'enforce', 'record', 'record_allow_nonroot'];

/** SimulationAdjustmentFactor::adjust_u32 / adjust_i64: 0 stays 0, else max(v + add, ⌊v × mul⌋). */
const adjust = (v: number, mul: number, add: number) => (v === 0 ? 0 : Math.max(v + add, Math.floor(v * mul)));

export function simulateTransaction(net: Network, params: SimulateParams): Record<string, unknown> {
  let parsed: ParsedTx;
  try {
    parsed = parseEnvelope(String(params.transaction));
  } catch {
    return { error: 'Could not unmarshal transaction', latestLedger: 0 };
  }
  if (parsed.ops.length !== 1) return { error: 'Transaction contains more than one operation', latestLedger: 0 };
  if (parsed.tx.memo.type !== 'memoNone') {
    return { error: 'Transaction contains a memo. Soroban transactions do not support memos.', latestLedger: 0 };
  }
  const opType = sorobanOpType(parsed);
  if (!opType) {
    const type = parsed.ops[0].body.type;
    return { error: `Transaction contains unsupported operation type: ${type}`, latestLedger: 0 };
  }
  const authMode = params.authMode === undefined ? '' : String(params.authMode);
  if (!AUTH_MODES.includes(authMode)) {
    return {
      error: "optional 'authMode' must be one of enforce,record,record_allow_nonroot when included",
      latestLedger: 0,
    };
  }
  if (opType !== 'invokeHostFunction') {
    if (authMode !== '')
      return { error: 'cannot set authMode with non-InvokeHostFunction operations', latestLedger: 0 };
    return simulateFootprintOp(net, parsed, opType, String(params.transaction));
  }
  const op = sorobanOp(parsed)!;
  if (authMode.startsWith('record') && op.auth.length > 0) {
    return { error: `cannot set authMode to '${authMode}' with an auth footprint`, latestLedger: 0 };
  }
  const enforce = authMode === 'enforce' || (authMode === '' && op.auth.length > 0);

  const latest = net.latest;
  const cfg = net.config;
  const out = invoke({
    state: net.state,
    contracts: net.contracts,
    ledgerSeq: latest.sequence,
    timestamp: BigInt(latest.closeTime),
    networkId: net.networkId,
    source: op.source,
    hostFunction: op.hostFunction,
    authEntries: op.auth,
    authMode: enforce ? 'enforce' : 'record',
    access: { kind: 'record' },
    useAddressV2: params.useUpgradedAuth === true,
    config: cfg,
  });
  const events = out.host.events.map((e) => toDiagnosticEvent(e).toXdr('base64'));
  if (out.error || !out.value) {
    return {
      error: formatHostErrorText(out.error?.message ?? 'Error(Context, InternalError)', out.host.events),
      events,
      latestLedger: latest.sequence,
    };
  }

  const usage = measure(out);
  const auth = enforce ? op.auth : out.auth.entries();
  // Recorded address entries are still unsigned: budget their signature checks now.
  const unsigned = enforce ? 0 : auth.filter((a) => a.credentials.type !== 'sorobanCredentialsSourceAccount').length;
  const leeway = Number(params.resourceConfig?.instructionLeeway ?? 0) || 0;
  const instructions = adjust(usage.instructions + unsigned * COST.verify, 1.04, Math.max(50_000, leeway));
  const resources = new xdr.SorobanResources({
    footprint: new xdr.LedgerFootprint({ readOnly: usage.readOnly, readWrite: usage.readWrite }),
    instructions,
    diskReadBytes: usage.diskReadBytes,
    writeBytes: usage.writeBytes,
  });
  const ext = dataExt(usage.restoredIndices);
  const authBytes = auth.reduce(
    (n, a) => n + a.toXdr().length + (a.credentials.type === 'sorobanCredentialsSourceAccount' ? 0 : 160),
    0,
  );
  const draft = new xdr.SorobanTransactionData({ ext, resources, resourceFee: 0n });
  const envelopeBytes = Buffer.from(String(params.transaction), 'base64').length;
  const txSizeBytes = adjust(envelopeBytes + draft.toXdr().length + authBytes + 72, 1.1, 500);
  const nonRefundable = nonRefundableFee(
    {
      instructions,
      diskReadEntries: usage.diskReadEntries,
      diskReadBytes: usage.diskReadBytes,
      writeEntries: usage.readWrite.length,
      writeBytes: usage.writeBytes,
      txSizeBytes,
    },
    cfg,
  );
  const refundable =
    eventsFee(usage.eventBytes, cfg) + rentFee(usage.rentChanges, latest.sequence, net.state.sorobanStateSize(), cfg);
  const resourceFee = nonRefundable + adjust(refundable, 1.15, 0);
  const transactionData = new xdr.SorobanTransactionData({ ext, resources, resourceFee: BigInt(resourceFee) });

  const response: Record<string, unknown> = {
    transactionData: transactionData.toXdr('base64'),
    minResourceFee: String(resourceFee),
    results: [{ auth: auth.map((a) => a.toXdr('base64')), xdr: out.value.toXdr('base64') }],
    latestLedger: latest.sequence,
  };
  if (events.length > 0) response.events = events;
  // simulation.rs extract_modified_entries: an archived entry has no "before" (it is restored).
  const stateChanges = out.storage.changes().map((c) => {
    const before = c.before && !out.storage.restoredKeys.has(c.id) ? c.before : undefined;
    return {
      type: !before ? 'created' : c.after ? 'updated' : 'deleted',
      key: c.key.toXdr('base64'),
      before: before ? entryBase64(before, asLedgerEntry) : null,
      after: c.after ? entryBase64(c.after, asLedgerEntry) : null,
    };
  });
  if (stateChanges.length > 0) response.stateChanges = stateChanges;
  return response;
}

const dataExt = (restored: number[]): xdr.SorobanTransactionDataExt =>
  restored.length === 0
    ? xdr.SorobanTransactionDataExt.v0()
    : xdr.SorobanTransactionDataExt.resourceExt(new xdr.SorobanResourcesExtV0({ archivedSorobanEntries: restored }));

const byXdr = (a: xdr.LedgerKey, b: xdr.LedgerKey) => Buffer.compare(Buffer.from(a.toXdr()), Buffer.from(b.toXdr()));

/**
 * ExtendFootprintTtl / RestoreFootprint (stellar-rpc preflight_footprint_ttl_op_or_maybe_panic): the
 * keys come from the transaction's own SorobanTransactionData (read-only to extend, read-write to
 * restore); the answer is transactionData and minResourceFee (no results), plus a restorePreamble
 * when an extension needs archived entries restored first.
 */
function simulateFootprintOp(
  net: Network,
  p: ParsedTx,
  opType: 'extendFootprintTtl' | 'restoreFootprint',
  envelope: string,
): Record<string, unknown> {
  const data = sorobanData(p.tx);
  const latestLedger = net.latest.sequence;
  if (!data) {
    return {
      error:
        'To perform a SimulateTransaction for ExtendFootprintTtl or RestoreFootprint operations, SorobanTransactionData must be provided',
      latestLedger,
    };
  }
  const seq = latestLedger;
  const cfg = net.config;
  const restoredLiveUntil = seq + cfg.minPersistentTtl - 1;
  const envelopeBytes = Buffer.from(envelope, 'base64').length;

  // simulate_restore_op_resources: restore the archived ones (missing → error, live → skipped).
  const restore = (keys: xdr.LedgerKey[]): { keys: xdr.LedgerKey[]; bytes: number; rent: RentChange[] } | string => {
    const out: xdr.LedgerKey[] = [];
    const rent: RentChange[] = [];
    let bytes = 0;
    for (const k of keys) {
      if ((k.type !== 'contractData' && k.type !== 'contractCode') || isTemporary(k)) {
        return `Can't restore a ledger entry with key: ${k.toXdr('base64')}. Only persistent ledger entries with TTL can be restored.`;
      }
      const entry = net.state.get(keyId(k));
      if (!entry) return `Missing entry to restore for key ${k.toXdr('base64')}`;
      if (!isArchived(entry, k, seq)) continue;
      out.push(k);
      const size = ledgerEntrySize(entry);
      bytes += size;
      rent.push({
        persistent: true,
        code: k.type === 'contractCode',
        oldSize: 0,
        newSize: size,
        oldLiveUntil: 0,
        newLiveUntil: restoredLiveUntil,
      });
    }
    return { keys: out.sort(byXdr), bytes, rent };
  };
  const txData = (
    readOnly: xdr.LedgerKey[],
    readWrite: xdr.LedgerKey[],
    readBytes: number,
    writeBytes: number,
    rent: RentChange[],
    diskReadEntries: number,
  ) => {
    const resources = new xdr.SorobanResources({
      footprint: new xdr.LedgerFootprint({ readOnly, readWrite }),
      instructions: 0,
      diskReadBytes: readBytes,
      writeBytes,
    });
    const draft = new xdr.SorobanTransactionData({
      ext: xdr.SorobanTransactionDataExt.v0(),
      resources,
      resourceFee: 0n,
    });
    const txSizeBytes = adjust(envelopeBytes + draft.toXdr().length + 72, 1.1, 500);
    const nonRefundable = nonRefundableFee(
      {
        instructions: 0,
        diskReadEntries,
        diskReadBytes: readBytes,
        writeEntries: readWrite.length,
        writeBytes,
        txSizeBytes,
      },
      cfg,
    );
    const resourceFee = nonRefundable + adjust(rentFee(rent, seq, net.state.sorobanStateSize(), cfg), 1.15, 0);
    return {
      data: new xdr.SorobanTransactionData({
        ext: xdr.SorobanTransactionDataExt.v0(),
        resources,
        resourceFee: BigInt(resourceFee),
      }),
      resourceFee,
    };
  };

  if (opType === 'restoreFootprint') {
    const r = restore(data.resources.footprint.readWrite);
    if (typeof r === 'string') return { error: r, latestLedger };
    // Core counts every read-write key of a RestoreFootprint as a disk read (getNumDiskReadEntries).
    const { data: out, resourceFee } = txData([], r.keys, r.bytes, r.bytes, r.rent, r.keys.length);
    return { transactionData: out.toXdr('base64'), minResourceFee: String(resourceFee), latestLedger };
  }

  // simulate_extend_ttl_op_resources over AutoRestoringSnapshotSource.
  const extendTo = xdr.expectUnionVariant(p.ops[0].body, 'extendFootprintTtl').extendFootprintTtlOp.extendTo;
  const newLiveUntil = seq + extendTo;
  const extended: xdr.LedgerKey[] = [];
  const rent: RentChange[] = [];
  const archived: xdr.LedgerKey[] = [];
  for (const k of data.resources.footprint.readOnly) {
    if (isClassic(k) || (k.type !== 'contractData' && k.type !== 'contractCode')) {
      return {
        error: `Can't extend TTL for ledger entry with key \`${k.toXdr('base64')}\`. Only entries with TTL (contract data or code entries) can have it extended`,
        latestLedger,
      };
    }
    const entry = net.state.get(keyId(k));
    if (!entry || entry.liveUntil === undefined) continue;
    let current = entry.liveUntil;
    if (current < seq) {
      if (isTemporary(k)) continue;
      archived.push(k);
      current = restoredLiveUntil;
    }
    if (newLiveUntil <= current) continue;
    extended.push(k);
    const size = ledgerEntrySize(entry);
    rent.push({
      persistent: !isTemporary(k),
      code: k.type === 'contractCode',
      oldSize: size,
      newSize: size,
      oldLiveUntil: current,
      newLiveUntil,
    });
  }
  const { data: out, resourceFee } = txData(extended.sort(byXdr), [], 0, 0, rent, 0);
  const response: Record<string, unknown> = {
    transactionData: out.toXdr('base64'),
    minResourceFee: String(resourceFee),
    latestLedger,
  };
  if (archived.length > 0) {
    const r = restore(archived);
    if (typeof r !== 'string') {
      const pre = txData([], r.keys, r.bytes, r.bytes, r.rent, r.keys.length);
      response.restorePreamble = { transactionData: pre.data.toXdr('base64'), minResourceFee: String(pre.resourceFee) };
    }
  }
  return response;
}
