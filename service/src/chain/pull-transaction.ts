// Builds the one operation the service ever submits: pull_funds(user, merchant) on the vault,
// with the merchant's account as the transaction source. Its time bound comes from the network's
// clock, not ours: core checks maxTime against ledger close time, and ledger time need not agree
// with the service's clock (a test clock, a local network moved ahead, a skewed host).
import { Account, Address, Contract, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';

/** How long a built pull stays valid, in network seconds. */
export const PULL_TIME_BOUND_SECONDS = 30;

export function buildPullTransaction(input: {
  contractId: string;
  user: string;
  merchant: string;
  /** The merchant account's current sequence number (the transaction uses the next one). */
  sequence: bigint;
  /** Inclusion fee bid, stroops (simulation adds the resource fee). */
  inclusionFee: bigint;
  /** The network's time now, unix seconds. */
  networkNow: number;
  networkPassphrase: string;
}): Transaction {
  const source = new Account(input.merchant, input.sequence.toString());
  return new TransactionBuilder(source, {
    fee: input.inclusionFee.toString(),
    networkPassphrase: input.networkPassphrase,
  })
    .addOperation(
      new Contract(input.contractId).call(
        'pull_funds',
        new Address(input.user).toScVal(),
        new Address(input.merchant).toScVal(),
      ),
    )
    .setTimebounds(0, input.networkNow + PULL_TIME_BOUND_SECONDS)
    .build();
}
