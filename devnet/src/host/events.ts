// Events as the host records them during one invocation, and their XDR forms.
import { xdr } from '@stellar/stellar-sdk';
import { contractIdBytes } from '../ledger/addresses.ts';

export type HostEvent = {
  kind: 'contract' | 'diagnostic';
  /** C… strkey of the emitting contract; null for host-level diagnostics (the root fn_call). */
  contractId: string | null;
  topics: xdr.ScVal[];
  data: xdr.ScVal;
  /** Emitted inside a call that later failed: printed "[Failed … (not emitted)]". */
  failed: boolean;
};

export function toContractEvent(e: HostEvent): xdr.ContractEvent {
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: e.contractId ? new xdr.ContractId(contractIdBytes(e.contractId)) : null,
    type: e.kind === 'contract' ? xdr.ContractEventType.contract : xdr.ContractEventType.diagnostic,
    body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics: e.topics, data: e.data })),
  });
}

export function toDiagnosticEvent(e: HostEvent): xdr.DiagnosticEvent {
  return new xdr.DiagnosticEvent({ inSuccessfulContractCall: !e.failed, event: toContractEvent(e) });
}

/** Diagnostic data: one argument stands alone, several become a Vec, none is Void (events/internal.rs). */
export function diagnosticData(args: xdr.ScVal[]): xdr.ScVal {
  if (args.length === 0) return xdr.ScVal.scvVoid();
  if (args.length === 1) return args[0];
  return xdr.ScVal.scvVec(args);
}
