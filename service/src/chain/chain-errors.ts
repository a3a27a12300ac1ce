// Turns a failed simulation of pull_funds into a cause a merchant can act on.
// A release-built vault contract's panics ("Vault does not exist", "Too early to pull funds")
// reach the RPC only as `Error(WasmVm, InvalidAction)` without text, so the cause is
// established from the vault's storage and the ledger time; the token's own failures arrive as
// `Error(Contract, #9)` (allowance) and `#10` (balance) raised by the token contract.
// We only claim a cause we have established; otherwise the chain's text stands alone.
import { Address, type xdr } from '@stellar/stellar-sdk';
import { PullRejection, type PullRejectionCode, type VaultTerms } from '../billing/pulls/vault-gateway.ts';

type EstablishedCode = Extract<PullRejectionCode, 'too_early' | 'vault_missing' | 'insufficient_allowance' | 'insufficient_balance'>;

const PHRASES: Record<EstablishedCode, string> = {
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
  vault: VaultTerms | undefined;
  /** Close time of the latest ledger when the vault was read, unix seconds. */
  ledgerTime: bigint;
}

export function isVmTrap(failure: SimulationFailure): boolean {
  return failure.error.includes('Error(WasmVm, InvalidAction)');
}

/** Contract ids that raised `Error(Contract, #code)` according to the diagnostic events. */
function contractsRaising(events: xdr.DiagnosticEvent[], code: number): string[] {
  const raisers: string[] = [];
  for (const { event } of events) {
    const [first, second] = event.body.v0.topics;
    if (first?.type !== 'scvSymbol' || first.sym.toString() !== 'error') continue;
    if (second?.type !== 'scvError' || second.error.type !== 'sceContract' || second.error.contractCode !== code) continue;
    if (event.contractId) raisers.push(Address.contract(event.contractId.value).toString());
  }
  return raisers;
}

/**
 * The established cause of a failed simulation. `acceptVault` (the plan's terms check) runs
 * first whenever the vault exists: a vault that does not match the plan is the cause to fix,
 * whatever allowance or balance problem the simulation also met.
 */
export function classifySimulationFailure(
  failure: SimulationFailure,
  facts: VaultFacts | undefined,
  acceptVault: (vault: VaultTerms) => void,
): PullRejection {
  const chainText = failure.error;
  const reject = (code: EstablishedCode) => new PullRejection(code, `${PHRASES[code]}: ${chainText}`);
  const vault = facts?.vault;
  if (facts && !vault && isVmTrap(failure)) return reject('vault_missing');
  if (!vault) return new PullRejection('simulation_failed', chainText);
  try {
    acceptVault(vault);
  } catch (err) {
    if (err instanceof PullRejection) return err;
    throw err;
  }
  if (isVmTrap(failure) && vault.lastPullTimestamp > 0n && facts!.ledgerTime < vault.lastPullTimestamp + vault.intervalSeconds) {
    return reject('too_early');
  }
  const match = /Error\(Contract, #(\d+)\)/.exec(chainText);
  const code = match ? Number(match[1]) : undefined;
  // Only the vault's token raising the code counts: another contract's #9 means something else.
  if (code === ALLOWANCE_ERROR && contractsRaising(failure.events, code).includes(vault.token)) return reject('insufficient_allowance');
  if (code === BALANCE_ERROR && contractsRaising(failure.events, code).includes(vault.token)) return reject('insufficient_balance');
  return new PullRejection('simulation_failed', chainText);
}
