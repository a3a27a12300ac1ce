// Turns a failed simulation of pull_funds into a cause a merchant can act on.
// A release-built vault contract's panics ("Vault does not exist", "Too early to pull funds")
// reach the RPC only as `Error(WasmVm, InvalidAction)` without text, so the cause is
// established from the vault's storage and the ledger time; the token's own failures arrive as
// `Error(Contract, #9)` (allowance) and `#10` (balance) raised by the token contract.
// We only claim a cause we have established; otherwise the chain's text stands alone.
import { Address, xdr } from '@stellar/stellar-sdk';
import { PullRejection, type PullRejectionCode } from '../billing/pulls/vault-gateway.ts';
import type { VaultData } from './vault-state.ts';

const PHRASES: Record<Exclude<PullRejectionCode, 'simulation_failed' | 'submission_failed'>, string> = {
  too_early: 'Too early to pull funds',
  vault_missing: 'Vault does not exist',
  insufficient_allowance: 'Insufficient allowance',
  insufficient_balance: 'Insufficient balance',
};

/** SAC error codes (ContractError in the built-in token contract). */
const ALLOWANCE_ERROR = 9;
const BALANCE_ERROR = 10;

export interface SimulationFailure {
  error: string;
  events: xdr.DiagnosticEvent[];
}

export interface VaultFacts {
  vault: VaultData | undefined;
  /** Close time of the ledger the simulation ran against, unix seconds. */
  ledgerTime: bigint;
}

export function isVmTrap(failure: SimulationFailure): boolean {
  return failure.error.includes('Error(WasmVm, InvalidAction)');
}

/** Contract ids that raised `Error(Contract, #code)` according to the diagnostic events. */
function contractsRaising(events: xdr.DiagnosticEvent[], code: number): string[] {
  const raisers: string[] = [];
  for (const diagnostic of events) {
    const event = diagnostic.event();
    const topics = event.body().v0().topics();
    const [first, second] = topics;
    if (!first || !second || first.switch().name !== 'scvSymbol' || first.sym().toString() !== 'error') continue;
    if (second.switch().name !== 'scvError') continue;
    const err = second.error();
    if (err.switch().name !== 'sceContract' || err.contractCode() !== code) continue;
    const id = event.contractId();
    if (id) raisers.push(Address.contract(id as unknown as Buffer).toString());
  }
  return raisers;
}

export function classifySimulationFailure(failure: SimulationFailure, facts: VaultFacts | undefined): PullRejection {
  const chainText = failure.error;
  const reject = (code: keyof typeof PHRASES) => new PullRejection(code, `${PHRASES[code]}: ${chainText}`);
  const vault = facts?.vault;

  if (facts && isVmTrap(failure)) {
    if (!vault) return reject('vault_missing');
    if (vault.lastPullTimestamp > 0n && facts.ledgerTime < vault.lastPullTimestamp + vault.intervalSeconds) {
      return reject('too_early');
    }
  }
  if (vault) {
    const match = /Error\(Contract, #(\d+)\)/.exec(chainText);
    const code = match ? Number(match[1]) : undefined;
    // Only the vault's token raising the code counts: another contract's #9 means something else.
    if (code === ALLOWANCE_ERROR && contractsRaising(failure.events, code).includes(vault.token)) {
      return reject('insufficient_allowance');
    }
    if (code === BALANCE_ERROR && contractsRaising(failure.events, code).includes(vault.token)) {
      return reject('insufficient_balance');
    }
  }
  return new PullRejection('simulation_failed', chainText);
}
