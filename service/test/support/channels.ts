// Channel accounts for tests: created and funded on the local network, sealed under the app's
// key-encryption key and stored, as `billing channels create --devnet-control` does.
import { rpc, xdr, Keypair } from '@stellar/stellar-sdk';
import { channelSealContext } from '../../src/billing/pulls/channels-port.ts';
import { fundChannels, newChannelKeys, readSequences } from '../../src/chain/channel-accounts.ts';
import type { TestApp } from './app.ts';
import type { Devnet } from './devnet.ts';

export async function addChannels(t: TestApp, devnet: Devnet, count: number): Promise<string[]> {
  const keys = newChannelKeys(count);
  await fundChannels(keys, { kind: 'devnet', controlUrl: devnet.controlUrl });
  const sequences = await readSequences(
    devnet.rpcUrl,
    keys.map((k) => k.publicKey),
  );
  await t.deps.repos.channels.insert(
    keys.map((k) => ({
      publicKey: k.publicKey,
      sealed: t.deps.box.seal(k.secret, channelSealContext(k.publicKey)),
      sequence: sequences.get(k.publicKey),
    })),
  );
  return keys.map((k) => k.publicKey);
}

/** Closes a ledger every `ms` until stopped: setting up subscribers needs ledgers, the test's own steps do not. */
export function closeLedgersEvery(devnet: Devnet, ms = 100): () => Promise<void> {
  let running = true;
  const loop = (async () => {
    while (running) {
      await devnet.control('/close-ledger', {}).catch(() => undefined);
      await new Promise((r) => setTimeout(r, ms));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/** An account's XLM balance, stroops. */
export async function xlmBalance(devnet: Devnet, account: string): Promise<bigint> {
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const key = xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrPublicKey() }),
  );
  const res = await server.getLedgerEntries(key);
  const val = res.entries[0]?.val;
  if (val?.type !== 'account') throw new Error(`no account ${account}`);
  return BigInt(val.account.balance.toString());
}

/** Waits until `ok` holds (checked every 100 ms), or fails after `ms`. */
export async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
