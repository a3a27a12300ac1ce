// SEP-53 signed messages: the wallet signs SHA-256("Stellar Signed Message:\n" + message) with
// its ed25519 key (Freighter's signMessage does exactly this). Proves the caller holds a wallet
// without an account or a transaction.
import { createHash } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import type { WalletSignatures } from '../billing/subscribers/wallet-subscriptions-port.ts';

const PREFIX = 'Stellar Signed Message:\n';

export const sep53Hash = (message: string): Buffer =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(PREFIX, 'utf8'), Buffer.from(message, 'utf8')]))
    .digest();

export const walletSignatures: WalletSignatures = {
  verify(wallet, message, signature) {
    if (!StrKey.isValidEd25519PublicKey(wallet)) return false;
    const sig = Buffer.from(signature, 'base64');
    if (sig.length !== 64) return false;
    try {
      return Keypair.fromPublicKey(wallet).verify(sep53Hash(message), sig);
    } catch {
      return false;
    }
  },
};
