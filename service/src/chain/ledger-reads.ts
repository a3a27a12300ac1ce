// Small reads of the ledger that the SDK's helpers would blur: rpc.Server.getAccount turns every
// failure (a transport error included) into "Account not found", and getLatestLedger decodes the
// whole ledger's meta (every transaction in it) when all we need is the close time.
import { Keypair, xdr, type rpc } from '@stellar/stellar-sdk';

/** The account's current sequence number, or undefined when the account does not exist. */
export async function accountSequence(server: rpc.Server, address: string): Promise<bigint | undefined> {
  const key = xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(address).xdrPublicKey() }),
  );
  const res = await server.getLedgerEntries(key);
  const data = res.entries[0]?.val;
  return data?.type === 'account' ? BigInt(data.account.seqNum) : undefined;
}

/** Close time (unix seconds) of the latest ledger, from the raw answer: no ledger meta decoded. */
export async function latestCloseTime(server: rpc.Server): Promise<bigint> {
  const raw = await server._getLatestLedger();
  return BigInt(raw.closeTime);
}
