// Read-only look at what a pull needs, without a transaction: the vault, the subscriber's
// allowance to the vault (the SAC's temporary entry), its balance (the token's own balance(),
// simulated, so any holder storage — trustline or contract data — reads the same), and the latest
// ledger. Used before the collector spends a fee (pre-flight) and ahead of the due date (health).
import { Account, Address, Contract, rpc, scValToNative, TransactionBuilder } from '@stellar/stellar-sdk';
import type { Inspection } from '../billing/pulls/vault-gateway.ts';
import { latestApprovalAmount, readAllowance } from './allowance-state.ts';
import { findCancellation } from './vault-events.ts';
import { readVault } from './vault-state.ts';

async function readBalance(
  server: rpc.Server,
  token: string,
  owner: string,
  passphrase: string,
): Promise<bigint | undefined> {
  const tx = new TransactionBuilder(new Account(owner, '0'), { fee: '100', networkPassphrase: passphrase })
    .addOperation(new Contract(token).call('balance', new Address(owner).toScVal()))
    .setTimeout(0)
    .build();
  const sim = await server.simulateTransaction(tx);
  if (!rpc.Api.isSimulationSuccess(sim) || !sim.result) return undefined;
  return BigInt(scValToNative(sim.result.retval) as bigint);
}

export async function inspectVault(
  server: rpc.Server,
  input: { user: string; merchant: string; contractId: string; passphrase: string },
): Promise<Inspection> {
  const [vault, latest] = await Promise.all([
    readVault(server, input.contractId, input.user, input.merchant),
    server._getLatestLedger(),
  ]);
  const base = { latestLedger: latest.sequence, ledgerTime: Number(latest.closeTime) };
  if (!vault) {
    const cancelled = await findCancellation(server, input.contractId, input.user, input.merchant).catch(
      () => undefined,
    );
    return { ...base, vault: undefined, vaultCancelledAtLedger: cancelled?.ledger };
  }
  const [allowance, balance] = await Promise.all([
    readAllowance(server, vault.token, input.user, input.contractId),
    readBalance(server, vault.token, input.user, input.passphrase),
  ]);
  const revoked =
    allowance?.amount === 0n
      ? (await latestApprovalAmount(server, vault.token, input.user, input.contractId)) === 0n
      : false;
  return {
    ...base,
    vault,
    allowance: allowance ? { amount: allowance.amount, liveUntilLedger: allowance.liveUntilLedger, revoked } : null,
    balance,
  };
}
