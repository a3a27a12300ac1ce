// Turns a failed simulation of pull_funds into a cause a merchant can act on.
// A release-built vault contract's panics ("Vault does not exist", "Too early to pull funds")
// reach the RPC only as `Error(WasmVm, InvalidAction)` without text, so the cause is
// established from the vault's storage and the ledger time; the token's own failures arrive as
// `Error(Contract, #9)` (allowance) and `#10` (balance) raised by the token contract.
// We only claim a cause we have established; otherwise the chain's text stands alone.
import { PullRejection, type PullRejectionCode, type VaultTerms } from '../billing/pulls/vault-gateway.ts';
import type { AllowanceState } from './allowance-state.ts';
import { errorEventData, type SimulationFailure } from './error-events.ts';
import { holderCause } from './holder-errors.ts';

type EstablishedCode = Extract<
  PullRejectionCode,
  | 'too_early'
  | 'vault_missing'
  | 'insufficient_allowance'
  | 'allowance_expired'
  | 'allowance_revoked'
  | 'insufficient_balance'
  | 'merchant_trustline_missing'
  | 'merchant_not_authorized'
  | 'merchant_over_limit'
>;

// The spec's phrase comes first whatever the finer cause, so a client matching on it keeps working.
const PHRASES: Record<EstablishedCode, string> = {
  too_early: 'Too early to pull funds',
  vault_missing: 'Vault does not exist',
  insufficient_allowance: 'Insufficient allowance',
  allowance_expired: 'Insufficient allowance',
  allowance_revoked: 'Insufficient allowance',
  insufficient_balance: 'Insufficient balance',
  merchant_trustline_missing: 'Merchant cannot receive the token',
  merchant_not_authorized: 'Merchant cannot receive the token',
  merchant_over_limit: 'Merchant cannot receive the token',
};

/** SAC error code for allowances (ContractError in the built-in token contract). */
export const ALLOWANCE_ERROR = 9;

export interface VaultFacts {
  vault: VaultTerms | undefined;
  /** Close time of the latest ledger when the vault was read, unix seconds. */
  ledgerTime: bigint;
  /** Read only for an allowance at 0: whether the subscriber's latest approve set it to 0. */
  revokedByApprove?: boolean;
  /** Read only when the vault's token raised #9: the allowance entry, or null when there is none. */
  allowance?: AllowanceState | null;
  /** This subscription was collected before, so an allowance was live then (evidence of expiry). */
  collectedBefore?: boolean;
  /** The merchant's account (the receiving side of the transfer). */
  merchant?: string;
  /** Read only on #11: whether the merchant's trustline is authorized. */
  merchantAuthorized?: boolean;
  /** Read only when the vault is missing: its subscriber's cancel_vault, if the RPC still has it. */
  cancelledAtLedger?: number;
}

/** True when the failure is `Error(Contract, #code)` raised by `token` (another contract's #9 means something else). */
export function raisedBy(failure: SimulationFailure, code: number, token: string): boolean {
  const match = /Error\(Contract, #(\d+)\)/.exec(failure.error);
  return match !== null && Number(match[1]) === code && errorEventData(failure.events, code, token).length > 0;
}

export function isVmTrap(failure: SimulationFailure): boolean {
  return failure.error.includes('Error(WasmVm, InvalidAction)');
}

/** The note a vault_missing carries when the vault's subscriber cancelled it. */
export const cancelledNote = (ledger: number) => `the subscriber cancelled it (cancel_vault in ledger ${ledger})`;

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
  const reject = (code: EstablishedCode, detail?: string, subscriberLeft = false) =>
    new PullRejection(code, `${PHRASES[code]}: ${detail ? `${detail}: ` : ''}${chainText}`, { subscriberLeft });
  const vault = facts?.vault;
  if (facts && !vault && isVmTrap(failure)) {
    const cancelled = facts.cancelledAtLedger;
    return cancelled ? reject('vault_missing', cancelledNote(cancelled), true) : reject('vault_missing');
  }
  if (!vault) return new PullRejection('simulation_failed', chainText);
  try {
    acceptVault(vault);
  } catch (err) {
    if (err instanceof PullRejection) return err;
    throw err;
  }
  if (
    isVmTrap(failure) &&
    vault.lastPullTimestamp > 0n &&
    facts!.ledgerTime < vault.lastPullTimestamp + vault.intervalSeconds
  ) {
    return reject('too_early');
  }
  if (raisedBy(failure, ALLOWANCE_ERROR, vault.token)) return allowanceCause(facts!, reject);
  const holder = holderCause(failure, vault.token, facts!.merchant ?? '', facts!.merchantAuthorized);
  if (holder) return reject(holder.code, holder.detail);
  return new PullRejection('simulation_failed', chainText);
}

/**
 * #9 reads the same on chain for a too-small, an expired and a revoked allowance. The allowance
 * entry tells them apart: past its live_until_ledger → expired; live at 0 → revoked by the
 * subscriber (approve(…, 0) is how a subscriber stops payments: the vault has no cancel). No entry
 * at all is "expired" only with evidence that one was live before (an earlier collection).
 */
function allowanceCause(
  facts: VaultFacts,
  reject: (code: EstablishedCode, detail?: string, subscriberLeft?: boolean) => PullRejection,
): PullRejection {
  const a = facts.allowance;
  if (a === undefined) return reject('insufficient_allowance');
  if (a === null) {
    return facts.collectedBefore
      ? reject(
          'allowance_expired',
          'the allowance has expired (no allowance entry is left, and an earlier pull succeeded)',
        )
      : reject('insufficient_allowance');
  }
  if (a.liveUntilLedger < a.latestLedger)
    return reject('allowance_expired', `the allowance expired at ledger ${a.liveUntilLedger}`);
  if (a.amount === 0n) {
    return facts.revokedByApprove
      ? reject('allowance_revoked', 'the subscriber revoked the allowance (set to 0)', true)
      : reject('insufficient_allowance', 'the allowance is used up');
  }
  return reject('insufficient_allowance');
}
