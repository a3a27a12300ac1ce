// Builds the one operation the service ever submits: pull_funds(user, merchant) on the vault,
// with the merchant's account as the transaction source. Its time bound comes from the network's
// clock, not ours: core checks maxTime against ledger close time, and ledger time need not agree
// with the service's clock (a test clock, a local network moved ahead, a skewed host).
// With channel accounts (issue 14) the source is a channel and the merchant's authorisation rides
// in the operation's auth entries.
import { Account, Address, Contract, Operation, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';

/** How long a built pull stays valid, in network seconds. */
export const PULL_TIME_BOUND_SECONDS = 30;

export function buildPullTransaction(input: {
  contractId: string;
  user: string;
  merchant: string;
  /** The transaction's source (a channel account); the merchant when absent. */
  source?: string;
  /** Signed auth entries for the operation (otherwise simulation records them). */
  auth?: xdr.SorobanAuthorizationEntry[];
  /** The time bound to use instead of networkNow + PULL_TIME_BOUND_SECONDS. */
  maxTime?: number;
  /** See PreparePullInput.laterThan. */
  laterThan?: number;
  /** The source account's current sequence number (the transaction uses the next one). */
  sequence: bigint;
  /** Inclusion fee bid, stroops (simulation adds the resource fee). */
  inclusionFee: bigint;
  /** The network's time now, unix seconds. */
  networkNow: number;
  networkPassphrase: string;
}): Transaction {
  const source = new Account(input.source ?? input.merchant, input.sequence.toString());
  const call = new Contract(input.contractId).call(
    'pull_funds',
    new Address(input.user).toScVal(),
    new Address(input.merchant).toScVal(),
  );
  const op = input.auth
    ? Operation.invokeHostFunction({
        func: xdr.HostFunction.hostFunctionTypeInvokeContract(
          new xdr.InvokeContractArgs({
            contractAddress: new Address(input.contractId).toScAddress(),
            functionName: 'pull_funds',
            args: [new Address(input.user).toScVal(), new Address(input.merchant).toScVal()],
          }),
        ),
        auth: input.auth,
      })
    : call;
  return new TransactionBuilder(source, {
    fee: input.inclusionFee.toString(),
    networkPassphrase: input.networkPassphrase,
  })
    .addOperation(op)
    .setTimebounds(0, input.maxTime ?? timeBoundAfter(input.networkNow, input.laterThan))
    .build();
}

/** A pull's time bound: PULL_TIME_BOUND_SECONDS of network time, and past `laterThan` when given. */
export const timeBoundAfter = (networkNow: number, laterThan?: number): number =>
  Math.max(networkNow + PULL_TIME_BOUND_SECONDS, (laterThan ?? 0) + 1);
