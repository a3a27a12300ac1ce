// Creating channel accounts on the network (`billing channels create`). Three ways to fund a new
// account: a friendbot (testnet, futurenet: GET <url>?addr=G…), the local network's control API
// (POST <url>/fund), or createAccount operations paid by FEE_SOURCE_SECRET (any network; at most
// 100 operations per transaction, stellar-core's MAX_OPS_PER_TX). A channel that pays its own fees
// needs XLM beyond the 1 XLM base reserve; with a fee source it only needs to exist.
import { Keypair, Operation, rpc, StrKey, TransactionBuilder, xdr } from '@stellar/stellar-sdk';
import type { ChannelAccounts, ChannelFunding } from '../billing/pulls/channels-port.ts';
import { parseSecret } from './merchant-key.ts';

/** The port billing/pulls/add-channels.ts uses, over the RPC at rpcUrl. */
export const createChannelAccounts = (rpcUrl: string): ChannelAccounts => ({
  newKeys: newChannelKeys,
  fund: fundChannels,
  readSequences: (accounts) => readSequences(rpcUrl, accounts),
});

export interface NewChannel {
  publicKey: string;
  secret: string;
}

export const newChannelKeys = (count: number): NewChannel[] =>
  Array.from({ length: count }, () => {
    const kp = Keypair.random();
    return { publicKey: kp.publicKey(), secret: kp.secret() };
  });

export type Funding = ChannelFunding;

const MAX_OPS_PER_TX = 100;

export async function fundChannels(channels: NewChannel[], funding: Funding): Promise<void> {
  if (funding.kind === 'friendbot') {
    for (const c of channels) {
      const res = await fetch(`${funding.url}?addr=${encodeURIComponent(c.publicKey)}`);
      if (!res.ok) throw new Error(`friendbot answered ${res.status} for ${c.publicKey}: ${await res.text()}`);
    }
    return;
  }
  if (funding.kind === 'devnet') {
    for (const c of channels) {
      const res = await fetch(`${funding.controlUrl.replace(/\/+$/, '')}/fund`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: c.publicKey, trustline: false }),
      });
      if (!res.ok) throw new Error(`local network fund answered ${res.status}: ${await res.text()}`);
    }
    return;
  }
  const funder = parseSecret(funding.funderSecret);
  if (!funder) throw new Error('FEE_SOURCE_SECRET is not a valid secret key');
  const server = new rpc.Server(funding.rpcUrl, { allowHttp: funding.rpcUrl.startsWith('http://') });
  for (let i = 0; i < channels.length; i += MAX_OPS_PER_TX) {
    const batch = channels.slice(i, i + MAX_OPS_PER_TX);
    const account = await server.getAccount(funder.publicKey);
    const builder = new TransactionBuilder(account, { fee: '1000', networkPassphrase: funding.passphrase });
    for (const c of batch)
      builder.addOperation(
        Operation.createAccount({ destination: c.publicKey, startingBalance: funding.startingBalance }),
      );
    const tx = funder.signed(builder.setTimeout(60).build());
    const sent = await server.sendTransaction(tx);
    if (sent.status !== 'PENDING' && sent.status !== 'DUPLICATE')
      throw new Error(`createAccount transaction refused: ${sent.status} ${sent.errorResult?.result.type ?? ''}`);
    const done = await server.pollTransaction(sent.hash, { attempts: 30, sleepStrategy: () => 1000 });
    if (done.status !== 'SUCCESS') throw new Error(`createAccount transaction ${sent.hash}: ${done.status}`);
  }
}

/**
 * The accounts' sequence numbers, read in batches of 200 keys per getLedgerEntries (stellar-rpc's
 * limit), so the first pull through each channel need not read it.
 */
export async function readSequences(rpcUrl: string, accounts: string[]): Promise<Map<string, bigint>> {
  const server = new rpc.Server(rpcUrl, { allowHttp: rpcUrl.startsWith('http://') });
  const out = new Map<string, bigint>();
  for (let i = 0; i < accounts.length; i += 200) {
    const keys = accounts
      .slice(i, i + 200)
      .map((a) =>
        xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(a).xdrPublicKey() })),
      );
    const res = await server.getLedgerEntries(...keys);
    for (const e of res.entries) {
      if (e.val.type !== 'account') continue;
      const acc = e.val.account;
      out.set(StrKey.encodeEd25519PublicKey(acc.accountId.ed25519.value), BigInt(acc.seqNum.toString()));
    }
  }
  return out;
}
