// Puts a subscriber on the devnet the way a real checkout does: fund the wallet, mint it tokens,
// approve the vault contract as spender, create the vault — each a real transaction built,
// simulated, signed and sent through the SDK and confirmed on the local network.
import {
  Address,
  Contract,
  Keypair,
  nativeToScVal,
  rpc,
  scValToNative,
  TransactionBuilder,
  type xdr,
} from '@stellar/stellar-sdk';
import type { Devnet } from './devnet.ts';

/** Builds, simulates, signs and sends an invocation; resolves once the network has queued it. */
export async function sendInvoke(devnet: Devnet, signer: Keypair, contractId: string, fn: string, args: xdr.ScVal[]) {
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const [account, latest] = await Promise.all([server.getAccount(signer.publicKey()), server._getLatestLedger()]);
  // Core checks time bounds against ledger close time, which the local network may run ahead of
  // the wall clock (advance-time, sub-second ledgers): the bound comes from the network's clock.
  const tx = new TransactionBuilder(account, { fee: '100', networkPassphrase: devnet.passphrase })
    .addOperation(new Contract(contractId).call(fn, ...args))
    .setTimebounds(0, Number(latest.closeTime) + 60)
    .build();
  const prepared = await server.prepareTransaction(tx);
  prepared.sign(signer);
  const sent = await server.sendTransaction(prepared);
  if (sent.status !== 'PENDING') throw new Error(`${fn}: sendTransaction ${sent.status}`);
  return { server, hash: sent.hash };
}

export async function invoke(devnet: Devnet, signer: Keypair, contractId: string, fn: string, args: xdr.ScVal[]) {
  const { server, hash } = await sendInvoke(devnet, signer, contractId, fn, args);
  const done = await server.pollTransaction(hash, { attempts: 100, sleepStrategy: () => 50 });
  if (done.status !== 'SUCCESS') throw new Error(`${fn}: ${done.status}`);
  return done;
}

export async function newFundedAccount(devnet: Devnet): Promise<Keypair> {
  const kp = Keypair.random();
  await devnet.control('/fund', { address: kp.publicKey() });
  return kp;
}

export interface SubscriberOptions {
  amountPerInterval: bigint;
  intervalSeconds: bigint;
  /** Tokens minted to the subscriber (default: ten cycles). */
  balance?: bigint;
  /** Allowance granted to the vault (default: ten cycles). */
  allowance?: bigint;
  /** Skip create_vault (to test a missing vault). */
  withoutVault?: boolean;
  /** The vault's token (default: the local network's token). */
  token?: string;
  /** Ledgers until the allowance's live_until_ledger (default 100,000). */
  allowanceLedgers?: number;
}

/** The subscriber's allowance to the vault: `amount` raw units, live for `ledgers` more ledgers (0 = revoke). */
export async function approveVault(devnet: Devnet, user: Keypair, amount: bigint, ledgers = 1000) {
  const { sequence } = await devnet.control<{ sequence: number }>('/state');
  return invoke(devnet, user, devnet.contracts.token, 'approve', [
    new Address(user.publicKey()).toScVal(),
    new Address(devnet.contracts.vault).toScVal(),
    nativeToScVal(amount, { type: 'i128' }),
    nativeToScVal(sequence + ledgers, { type: 'u32' }),
  ]);
}

export async function setUpSubscriber(devnet: Devnet, merchant: string, o: SubscriberOptions): Promise<Keypair> {
  const user = await newFundedAccount(devnet);
  const balance = o.balance ?? o.amountPerInterval * 10n;
  if (balance > 0n) await devnet.control('/mint', { to: user.publicKey(), amount: balance.toString() });
  const { token, vault } = devnet.contracts;
  await approveVault(devnet, user, o.allowance ?? o.amountPerInterval * 10n, o.allowanceLedgers ?? 100_000);
  if (!o.withoutVault) {
    await invoke(devnet, user, vault, 'create_vault', [
      new Address(user.publicKey()).toScVal(),
      new Address(merchant).toScVal(),
      new Address(o.token ?? token).toScVal(),
      nativeToScVal(o.amountPerInterval, { type: 'i128' }),
      nativeToScVal(o.intervalSeconds, { type: 'u64' }),
    ]);
  }
  return user;
}

export async function tokenBalance(devnet: Devnet, owner: string): Promise<bigint> {
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const source = await server.getAccount(devnet.accounts[0].publicKey);
  const tx = new TransactionBuilder(source, { fee: '100', networkPassphrase: devnet.passphrase })
    .addOperation(new Contract(devnet.contracts.token).call('balance', new Address(owner).toScVal()))
    .setTimeout(30)
    .build();
  const sim = await server.simulateTransaction(tx);
  if (!rpc.Api.isSimulationSuccess(sim) || !sim.result) throw new Error('balance simulation failed');
  return BigInt(scValToNative(sim.result.retval) as bigint);
}
