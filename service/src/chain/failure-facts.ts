// What the ledger says after a failed simulation of pull_funds. A failed simulation carries no
// state changes, so the cause is established by reading: always the vault entry and the ledger
// time; then only what the failure points at — the allowance entry on the token's #9, the
// merchant's trustline flags on #11, the subscriber's cancel_vault event when the vault is gone.
// Every read is best-effort: what cannot be read leaves the plainer cause standing.
import type { rpc } from '@stellar/stellar-sdk';
import { latestApprovalAmount, readAllowance } from './allowance-state.ts';
import { ALLOWANCE_ERROR, raisedBy, type VaultFacts } from './chain-errors.ts';
import type { SimulationFailure } from './error-events.ts';
import { DEAUTHORIZED_ERROR } from './holder-errors.ts';
import { latestCloseTime } from './ledger-reads.ts';
import { merchantTrustlineAuthorized } from './trustline-state.ts';
import { findCancellation } from './vault-events.ts';
import { readVault } from './vault-state.ts';

export interface FactsInput {
  contractId: string;
  user: string;
  merchant: string;
  passphrase: string;
  collectedBefore: boolean;
}

export async function gatherFacts(
  server: rpc.Server,
  failure: SimulationFailure,
  input: FactsInput,
): Promise<VaultFacts | undefined> {
  const { contractId, user, merchant } = input;
  let facts: VaultFacts;
  try {
    const [vault, ledgerTime] = await Promise.all([
      readVault(server, contractId, user, merchant),
      latestCloseTime(server),
    ]);
    facts = { vault, ledgerTime, merchant, collectedBefore: input.collectedBefore };
  } catch {
    return undefined; // could not establish anything: the chain's text stands alone
  }
  const vault = facts.vault;
  if (!vault) {
    facts.cancelledAtLedger = await findCancellation(server, contractId, user, merchant).then(
      (c) => c?.ledger,
      () => undefined,
    );
    return facts;
  }
  if (raisedBy(failure, ALLOWANCE_ERROR, vault.token)) {
    facts.allowance = await readAllowance(server, vault.token, user, contractId).then(
      (a) => a ?? null,
      () => undefined,
    );
    if (facts.allowance?.amount === 0n) {
      facts.revokedByApprove = await latestApprovalAmount(server, vault.token, user, contractId).then(
        (n) => n === 0n,
        () => false,
      );
    }
  }
  if (raisedBy(failure, DEAUTHORIZED_ERROR, vault.token)) {
    facts.merchantAuthorized = await merchantTrustlineAuthorized(server, vault.token, merchant, input.passphrase).catch(
      () => undefined,
    );
  }
  return facts;
}
