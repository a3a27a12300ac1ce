// Reading the host's diagnostic `error` events of a failed simulation.
import { Address, type xdr } from '@stellar/stellar-sdk';

export interface SimulationFailure {
  error: string;
  events: xdr.DiagnosticEvent[];
}

/**
 * The data of the diagnostic `error` events in which `token` raised `Error(Contract, #code)`. The
 * host writes the error's message there, alone or as the first item of a vector followed by its
 * arguments (soroban-env-host's err! macro), e.g. the SAC's
 * ["resulting balance is not within the allowed range", min, new, max].
 */
export function errorEventData(events: xdr.DiagnosticEvent[], code: number, token: string): xdr.ScVal[] {
  const out: xdr.ScVal[] = [];
  for (const { event } of events) {
    const [first, second] = event.body.v0.topics;
    if (first?.type !== 'scvSymbol' || first.sym.toString() !== 'error') continue;
    if (second?.type !== 'scvError' || second.error.type !== 'sceContract' || second.error.contractCode !== code)
      continue;
    if (event.contractId && Address.contract(event.contractId.value).toString() === token) out.push(event.body.v0.data);
  }
  return out;
}
