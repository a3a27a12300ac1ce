// What the ledger already says about the next pull, before a fee is spent (pre-flight) and ahead
// of the due date (health). Both read the same Inspection (vault, allowance, balance, ledger) and
// name a problem with the codes a failed pull would get.
import { rawUnits } from '../amounts.ts';
import type { HealthStatus } from '../model.ts';
import type { Inspection } from '../pulls/vault-gateway.ts';
import { differences, type PlanTerms } from '../pulls/vault-terms.ts';

/** The network's target ledger period (5 s), for turning ledgers into time. */
const LEDGER_SECONDS = 5;

export interface Problem {
  code: string;
  message: string;
  /** The subscriber left (revoked allowance, cancelled vault): dunning ends canceled. */
  subscriberLeft?: boolean;
}

/** The cause a pull would fail with now, or undefined when it should go through. */
export function preflightProblem(plan: PlanTerms, ins: Inspection, collectedBefore: boolean): Problem | undefined {
  const vault = ins.vault;
  if (!vault) {
    const cancelled = ins.vaultCancelledAtLedger;
    return cancelled
      ? {
          code: 'vault_missing',
          message: `Vault does not exist: the subscriber cancelled it (cancel_vault in ledger ${cancelled}) (pre-flight)`,
          subscriberLeft: true,
        }
      : {
          code: 'vault_missing',
          message: 'Vault does not exist: no vault entry for this subscriber and merchant (pre-flight)',
        };
  }
  const diff = differences(plan, vault);
  if (diff.length)
    return { code: 'vault_terms_mismatch', message: `Vault terms do not match the plan: ${diff.join('; ')}` };
  const amount = rawUnits(plan.tokenAmount) ?? 0n;
  const a = ins.allowance;
  if (a === null || a === undefined) {
    return collectedBefore
      ? {
          code: 'allowance_expired',
          message:
            'Insufficient allowance: the allowance has expired (no allowance entry is left, and an earlier pull succeeded) (pre-flight)',
        }
      : {
          code: 'insufficient_allowance',
          message: 'Insufficient allowance: the subscriber has approved nothing for the vault (pre-flight)',
        };
  }
  if (a.liveUntilLedger < ins.latestLedger) {
    return {
      code: 'allowance_expired',
      message: `Insufficient allowance: the allowance expired at ledger ${a.liveUntilLedger} (pre-flight)`,
    };
  }
  if (a.amount === 0n && a.revoked) {
    return {
      code: 'allowance_revoked',
      message: 'Insufficient allowance: the subscriber revoked the allowance (set to 0) (pre-flight)',
      subscriberLeft: true,
    };
  }
  if (a.amount < amount)
    return {
      code: 'insufficient_allowance',
      message: `Insufficient allowance: ${a.amount} approved, ${amount} needed (pre-flight)`,
    };
  if (ins.balance !== undefined && ins.balance < amount) {
    return {
      code: 'insufficient_balance',
      message: `Insufficient balance: ${ins.balance} held, ${amount} needed (pre-flight)`,
    };
  }
  return undefined;
}

export interface Health {
  status: HealthStatus;
  detail?: string;
}

/** The subscription's health for its next due date: what would fail then, if nothing changes. */
export function healthAt(plan: PlanTerms, ins: Inspection, due: Date, collectedBefore: boolean): Health {
  const problem = preflightProblem(plan, ins, collectedBefore);
  if (problem) {
    const status: HealthStatus =
      problem.code === 'vault_missing' ||
      problem.code === 'vault_terms_mismatch' ||
      problem.code === 'allowance_revoked'
        ? problem.code
        : problem.code === 'insufficient_balance'
          ? 'balance_low'
          : 'allowance_insufficient';
    return { status, detail: problem.message.replace(' (pre-flight)', '') };
  }
  // Live and large enough now: will it still be live at the due date?
  const a = ins.allowance!;
  const ledgersToDue = Math.max(0, Math.ceil((due.getTime() / 1000 - ins.ledgerTime) / LEDGER_SECONDS));
  if (a.liveUntilLedger < ins.latestLedger + ledgersToDue) {
    const expiresAt = new Date((ins.ledgerTime + (a.liveUntilLedger - ins.latestLedger) * LEDGER_SECONDS) * 1000);
    return {
      status: 'allowance_expiring',
      detail: `the allowance expires at ledger ${a.liveUntilLedger}, about ${expiresAt.toISOString()}, before the next billing date ${due.toISOString()}`,
    };
  }
  return { status: 'ok' };
}
