// The local test wallet (outside production only; the service offers it in the page's
// configuration): a throwaway account of the local network, funded with lumens and test tokens
// through the local network's control API, which signs in the page. It makes the whole flow run
// offline and in tests; it is never offered against a real network's service.
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import type { PageConfig } from '../config.ts';
import { type ConnectedWallet, toBase64, WalletError } from './wallet.ts';

const STORE = 'billing.local-wallet';

async function control(cfg: PageConfig, path: string, body: unknown) {
  const url = new URL(`/control${path}`, cfg.rpc_url);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new WalletError(`The local network refused ${path}: ${res.status} ${await res.text()}`);
}

/** Kept for this tab, so /manage can find the account that checked out. */
function keypair(): { kp: Keypair; fresh: boolean } {
  const saved = sessionStorage.getItem(STORE);
  if (saved) return { kp: Keypair.fromSecret(saved), fresh: false };
  const kp = Keypair.random();
  sessionStorage.setItem(STORE, kp.secret());
  return { kp, fresh: true };
}

export async function connectLocal(cfg: PageConfig, mint: bigint): Promise<ConnectedWallet> {
  const { kp, fresh } = keypair();
  if (fresh) {
    await control(cfg, '/fund', { address: kp.publicKey() });
    if (mint > 0n) await control(cfg, '/mint', { to: kp.publicKey(), amount: mint.toString() });
  }
  return {
    kind: 'local',
    address: kp.publicKey(),
    async sign(txXdr) {
      const tx = TransactionBuilder.fromXDR(txXdr, cfg.network_passphrase);
      tx.sign(kp);
      return tx.toXDR();
    },
    async signMessage(message) {
      const data = new TextEncoder().encode(`Stellar Signed Message:\n${message}`);
      const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
      return toBase64(new Uint8Array(kp.sign(hash)));
    },
  };
}
