// The subscriber's wallet, whichever it is: Freighter (the browser extension, through its own
// API package) or, outside production, the local test wallet.
export interface ConnectedWallet {
  kind: 'freighter' | 'local';
  address: string;
  /** Signs a transaction envelope (base64 XDR) for the page's network; throws WalletError when refused. */
  sign(txXdr: string): Promise<string>;
  /** SEP-53: signs SHA-256("Stellar Signed Message:\n" + message); base64 signature. */
  signMessage(message: string): Promise<string>;
}

export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export class WalletError extends Error {}
