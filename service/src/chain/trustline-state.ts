// The merchant's trustline for a Stellar Asset Contract's asset. The SAC's name() is the asset in
// SEP-11 form ("CODE:ISSUER", or "native"), read by simulation (nothing is sent); the trustline is
// then an ordinary ledger entry. Read only on the rare #11 path, where the SAC does not say which
// side is deauthorized.
import { Account, Asset, Contract, Keypair, rpc, scValToNative, TransactionBuilder, xdr } from '@stellar/stellar-sdk';

/** AUTHORIZED_FLAG of a trustline (Stellar-ledger-entries.x TrustLineFlags). */
const AUTHORIZED_FLAG = 1;

async function sacAsset(
  server: rpc.Server,
  token: string,
  source: string,
  passphrase: string,
): Promise<Asset | undefined> {
  const tx = new TransactionBuilder(new Account(source, '0'), { fee: '100', networkPassphrase: passphrase })
    .addOperation(new Contract(token).call('name'))
    .setTimeout(0)
    .build();
  const sim = await server.simulateTransaction(tx);
  if (!rpc.Api.isSimulationSuccess(sim) || !sim.result) return undefined;
  const name = String(scValToNative(sim.result.retval));
  if (name === 'native') return Asset.native();
  const [code, issuer] = name.split(':');
  return code && issuer ? new Asset(code, issuer) : undefined;
}

/** true / false from the trustline's flags; undefined when the token is no SAC or nothing could be read. */
export async function merchantTrustlineAuthorized(
  server: rpc.Server,
  token: string,
  merchant: string,
  passphrase: string,
): Promise<boolean | undefined> {
  const asset = await sacAsset(server, token, merchant, passphrase);
  if (!asset || asset.isNative()) return undefined;
  const key = xdr.LedgerKey.trustline(
    new xdr.LedgerKeyTrustLine({
      accountId: Keypair.fromPublicKey(merchant).xdrAccountId(),
      asset: asset.toTrustLineXDRObject(),
    }),
  );
  const res = await server.getLedgerEntries(key);
  const data = res.entries[0]?.val;
  if (data?.type !== 'trustline') return undefined;
  return (Number(data.trustLine.flags) & AUTHORIZED_FLAG) !== 0;
}
