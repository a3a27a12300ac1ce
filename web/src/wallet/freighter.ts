// Freighter through @stellar/freighter-api (talks to the extension over window messages; loads
// nothing remote). The wallet must be on the network this service uses: a wallet on another
// network would sign for the wrong passphrase, so it is refused before anything is built.
import { getNetworkDetails, isConnected, requestAccess, signMessage, signTransaction } from '@stellar/freighter-api';
import { type ConnectedWallet, toBase64, WalletError } from './wallet.ts';

export async function connectFreighter(networkPassphrase: string): Promise<ConnectedWallet> {
  const connected = await isConnected();
  if (!connected.isConnected)
    throw new WalletError(
      'Freighter is not installed in this browser (or is disabled): install it, or use another wallet',
    );
  const access = await requestAccess();
  if (access.error || !access.address)
    throw new WalletError(`Freighter did not share an account: ${access.error?.message ?? 'access refused'}`);
  const net = await getNetworkDetails();
  if (net.error) throw new WalletError(`Freighter did not say which network it is on: ${net.error.message}`);
  if (net.networkPassphrase !== networkPassphrase)
    throw new WalletError(
      `Wrong network: Freighter is on ${net.network || 'another network'} ("${net.networkPassphrase}"), this checkout runs on "${networkPassphrase}". Switch networks in Freighter and connect again.`,
    );
  const address = access.address;
  return {
    kind: 'freighter',
    address,
    async sign(txXdr) {
      const res = await signTransaction(txXdr, { networkPassphrase, address });
      if (res.error || !res.signedTxXdr)
        throw new WalletError(`The wallet refused to sign: ${res.error?.message ?? 'no signature returned'}`);
      return res.signedTxXdr;
    },
    async signMessage(message) {
      const res = await signMessage(message, { networkPassphrase, address });
      if (res.error || !res.signedMessage)
        throw new WalletError(`The wallet refused to sign: ${res.error?.message ?? 'no signature returned'}`);
      // Freighter answers base64 text (older versions: the bytes).
      const sig = res.signedMessage as unknown;
      return typeof sig === 'string' ? sig : toBase64(new Uint8Array(sig as ArrayLike<number>));
    },
  };
}
