// Builds the one operation the service ever submits: pull_funds(user, merchant) on the vault,
// with the merchant's account as the transaction source and a 30-second time bound.
import { Account, Address, BASE_FEE, Contract, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';

export const PULL_TIME_BOUND_SECONDS = 30;

export function buildPullTransaction(input: {
  contractId: string;
  user: string;
  merchant: string;
  /** The merchant account's current sequence number (the transaction uses the next one). */
  sequence: bigint;
  networkPassphrase: string;
}): Transaction {
  const source = new Account(input.merchant, input.sequence.toString());
  return new TransactionBuilder(source, { fee: BASE_FEE, networkPassphrase: input.networkPassphrase })
    .addOperation(
      new Contract(input.contractId).call(
        'pull_funds',
        new Address(input.user).toScVal(),
        new Address(input.merchant).toScVal(),
      ),
    )
    .setTimeout(PULL_TIME_BOUND_SECONDS)
    .build();
}
