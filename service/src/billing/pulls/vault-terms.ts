// The vault must say what the plan says. The subscriber sets the vault's token, amount and
// interval on-chain (create_vault, callable again at any time) and the contract pulls exactly
// those, so before a pull the service compares them with the plan: a lower amount would confirm
// a cycle that was not paid, a higher one or a shorter interval would take more than the plan
// says, and a longer interval makes every scheduled pull fail as too early.
import { rawUnits } from '../amounts.ts';
import { PullRejection, type Transfer, type VaultTerms } from './vault-gateway.ts';

export interface PlanTerms {
  /** The plan's price, exact decimal text in raw token units. */
  tokenAmount: string;
  intervalSeconds: number;
  /** null: the plan names no token, and whatever token the vault holds is accepted. */
  tokenContractId: string | null;
}

export function differences(plan: PlanTerms, vault: VaultTerms): string[] {
  const out: string[] = [];
  if (plan.tokenContractId !== null && vault.token !== plan.tokenContractId) {
    out.push(`token is ${vault.token} in the vault, ${plan.tokenContractId} in the plan`);
  }
  if (rawUnits(plan.tokenAmount) !== vault.amountPerInterval) {
    out.push(`amount_per_interval is ${vault.amountPerInterval} in the vault, ${plan.tokenAmount} in the plan`);
  }
  if (vault.intervalSeconds !== BigInt(plan.intervalSeconds)) {
    out.push(`interval_seconds is ${vault.intervalSeconds} in the vault, ${plan.intervalSeconds} in the plan`);
  }
  return out;
}

/** Throws PullRejection('vault_terms_mismatch') naming every field that differs. */
export function assertVaultMatchesPlan(plan: PlanTerms, vault: VaultTerms): void {
  const diff = differences(plan, vault);
  if (diff.length > 0)
    throw new PullRejection('vault_terms_mismatch', `Vault terms do not match the plan: ${diff.join('; ')}`);
}

/** A note for the pull history when what moved is not what the plan asked; undefined when it is. */
export function transferDiscrepancy(plan: PlanTerms, transfer: Transfer | undefined): string | undefined {
  if (!transfer) return 'no transfer from the subscriber to the merchant in the transaction';
  const notes: string[] = [];
  if (rawUnits(plan.tokenAmount) !== BigInt(transfer.amount))
    notes.push(`${transfer.amount} moved, the plan asks ${plan.tokenAmount}`);
  if (plan.tokenContractId !== null && transfer.token !== plan.tokenContractId)
    notes.push(`token ${transfer.token} moved, the plan names ${plan.tokenContractId}`);
  return notes.length ? `transfer differs from the plan: ${notes.join('; ')}` : undefined;
}
