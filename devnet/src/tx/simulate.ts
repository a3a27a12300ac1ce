// simulateTransaction: run the call against the last closed ledger in recording
// mode and report footprint, resources, fee, auth, return value and events, or
// the host error text, as stellar-rpc's preflight does.
import { xdr } from '@stellar/stellar-sdk';
import { formatHostErrorText } from '../host/display.ts';
import { toDiagnosticEvent } from '../host/events.ts';
import { COST } from '../host/host.ts';
import type { Network } from '../ledger/network.ts';
import { nonRefundableFee, refundableFee } from './fees.ts';
import { invoke } from './invoke.ts';
import { parseEnvelope, sorobanOp, type ParsedTx } from './parse.ts';
import { measure } from './resources.ts';
import { ledgerEntry } from './results.ts';
import { entryBase64, type StoredEntry } from '../ledger/ledger-state.ts';

const asLedgerEntry = (e: StoredEntry) => ledgerEntry(e.data, e.lastModified);

export type SimulateParams = {
  transaction?: unknown;
  authMode?: unknown;
  resourceConfig?: { instructionLeeway?: unknown };
  /** RPC ≥ 27.1: record CAP-71 ADDRESS_V2 credentials. SDK 17 always sends true, older SDKs never. */
  useUpgradedAuth?: unknown;
};

const AUTH_MODES = ['', 'enforce', 'record', 'record_allow_nonroot'];

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
  const op = sorobanOp(parsed);
  if (!op) {
    const type = parsed.ops[0].body.type;
    return { error: `Transaction contains unsupported operation type: ${type}`, latestLedger: 0 };
  }
  const authMode = params.authMode === undefined ? '' : String(params.authMode);
  if (!AUTH_MODES.includes(authMode)) {
    return { error: "optional 'authMode' must be one of enforce,record,record_allow_nonroot when included", latestLedger: 0 };
  }
  if (authMode.startsWith('record') && op.auth.length > 0) {
    return { error: `cannot set authMode to '${authMode}' with an auth footprint`, latestLedger: 0 };
  }
  const enforce = authMode === 'enforce' || (authMode === '' && op.auth.length > 0);

  const latest = net.latest;
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
  });
  const events = out.host.events.map((e) => toDiagnosticEvent(e).toXdr('base64'));
  if (out.error || !out.value) {
    return {
      error: formatHostErrorText(out.error?.message ?? 'Error(Context, InternalError)', out.host.events),
      events,
      latestLedger: latest.sequence,
    };
  }

  const usage = measure(out, net.state, latest.sequence);
  const auth = enforce ? op.auth : out.auth.entries();
  // Recorded address entries are still unsigned: budget their signature checks now.
  const unsigned = enforce ? 0 : auth.filter((a) => a.credentials.type !== 'sorobanCredentialsSourceAccount').length;
  const leeway = Number(params.resourceConfig?.instructionLeeway ?? 0) || 0;
  const instructions = Math.ceil((usage.instructions + unsigned * COST.verify) * 1.04) + 50_000 + leeway;
  const resources = new xdr.SorobanResources({
    footprint: new xdr.LedgerFootprint({ readOnly: usage.readOnly, readWrite: usage.readWrite }),
    instructions,
    diskReadBytes: usage.diskReadBytes,
    writeBytes: usage.writeBytes,
  });
  const authBytes = auth.reduce((n, a) => n + a.toXdr().length + (a.credentials.type === 'sorobanCredentialsSourceAccount' ? 0 : 160), 0);
  const draft = new xdr.SorobanTransactionData({ ext: xdr.SorobanTransactionDataExt.v0(), resources, resourceFee: 0n });
  const envelopeBytes = Buffer.from(String(params.transaction), 'base64').length;
  const txSizeBytes = Math.ceil((envelopeBytes + draft.toXdr().length + authBytes + 72) * 1.1) + 500;
  const nonRefundable = nonRefundableFee({
    instructions,
    diskReadEntries: usage.diskReadEntries,
    diskReadBytes: usage.diskReadBytes,
    writeEntries: usage.readWrite.length,
    writeBytes: usage.writeBytes,
    txSizeBytes,
  });
  const resourceFee = nonRefundable + Math.ceil(refundableFee(usage.eventBytes, usage.created) * 1.15);
  const transactionData = new xdr.SorobanTransactionData({
    ext: xdr.SorobanTransactionDataExt.v0(),
    resources,
    resourceFee: BigInt(resourceFee),
  });

  const response: Record<string, unknown> = {
    transactionData: transactionData.toXdr('base64'),
    minResourceFee: String(resourceFee),
    results: [{ auth: auth.map((a) => a.toXdr('base64')), xdr: out.value.toXdr('base64') }],
    latestLedger: latest.sequence,
  };
  if (events.length > 0) response.events = events;
  const stateChanges = out.storage.changes().map((c) => ({
    type: !c.before ? 'created' : c.after ? 'updated' : 'deleted',
    key: c.key.toXdr('base64'),
    before: c.before ? entryBase64(c.before, asLedgerEntry) : null,
    after: c.after ? entryBase64(c.after, asLedgerEntry) : null,
  }));
  if (stateChanges.length > 0) response.stateChanges = stateChanges;
  return response;
}
