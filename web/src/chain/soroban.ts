// What the pages do on chain, in the subscriber's browser: read a token's decimals and symbol,
// read an allowance, and build, have signed, send and confirm the subscriber's own transactions
// (the token's approve, the vault's create_vault). The service never sees a subscriber's key.
import {
  Account,
  Address,
  Contract,
  nativeToScVal,
  rpc,
  scValToNative,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import type { PageConfig } from '../config.ts';

/** The network's target ledger period, for turning ledgers into time (as the service does). */
export const LEDGER_SECONDS = 5;
/** The network's maximum entry lifetime in ledgers (about 180 days): an allowance lives at most this long. */
export const MAX_ENTRY_TTL = 3_110_400;
/** Slack after the last covered pull, so it is not refused for a few ledgers' difference. */
export const ALLOWANCE_MARGIN_LEDGERS = 17_280;

export class ChainStepError extends Error {}

export function server(cfg: PageConfig) {
  return new rpc.Server(cfg.rpc_url, { allowHttp: cfg.rpc_url.startsWith('http://') });
}

/** A read-only call, simulated from any address (nothing is signed or sent). */
async function view(cfg: PageConfig, contractId: string, fn: string, args: xdr.ScVal[], from: string) {
  const tx = new TransactionBuilder(new Account(from, '0'), { fee: '100', networkPassphrase: cfg.network_passphrase })
    .addOperation(new Contract(contractId).call(fn, ...args))
    .setTimeout(30)
    .build();
  const sim = await server(cfg).simulateTransaction(tx);
  if (!rpc.Api.isSimulationSuccess(sim) || !sim.result)
    throw new ChainStepError(`could not read ${fn} of ${contractId}`);
  return scValToNative(sim.result.retval) as unknown;
}

export async function tokenInfo(cfg: PageConfig, token: string, from: string) {
  const [decimals, symbol] = await Promise.all([
    view(cfg, token, 'decimals', [], from),
    view(cfg, token, 'symbol', [], from).catch(() => 'units'),
  ]);
  return { decimals: Number(decimals), symbol: String(symbol) };
}

export async function latestLedger(cfg: PageConfig) {
  const l = await server(cfg).getLatestLedger();
  return l.sequence;
}

/** The allowance `from` gave `spender` on `token`: amount and the ledger it lives until (null: none). */
export async function readAllowance(cfg: PageConfig, token: string, from: string, spender: string) {
  const key = xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(token).toScAddress(),
      key: xdr.ScVal.scvVec([
        xdr.ScVal.scvSymbol('Allowance'),
        xdr.ScVal.scvMap([
          new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('from'), val: new Address(from).toScVal() }),
          new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('spender'), val: new Address(spender).toScVal() }),
        ]),
      ]),
      durability: xdr.ContractDataDurability.temporary,
    }),
  );
  const res = await server(cfg).getLedgerEntries(key);
  const entry = res.entries[0];
  if (entry?.val.type !== 'contractData')
    return { amount: 0n, liveUntilLedger: null as number | null, latestLedger: res.latestLedger };
  const v = scValToNative(entry.val.contractData.val) as { amount: bigint; live_until_ledger: number };
  const live = Math.min(Number(v.live_until_ledger), entry.liveUntilLedgerSeq ?? Number.MAX_SAFE_INTEGER);
  const amount = live < res.latestLedger ? 0n : BigInt(v.amount);
  return { amount, liveUntilLedger: live, latestLedger: res.latestLedger };
}

export type Signer = (txXdr: string) => Promise<string>;

/** Builds and simulates one invocation by `source`, has it signed, sends it and waits for the ledger. */
export async function invoke(
  cfg: PageConfig,
  source: string,
  contractId: string,
  fn: string,
  args: xdr.ScVal[],
  sign: Signer,
  onStep: (step: 'signing' | 'submitting') => void,
): Promise<string> {
  const s = server(cfg);
  let account: Account;
  try {
    account = await s.getAccount(source);
  } catch {
    throw new ChainStepError(`the account ${source} does not exist on this network: fund it first`);
  }
  const tx = new TransactionBuilder(account, { fee: '1000', networkPassphrase: cfg.network_passphrase })
    .addOperation(new Contract(contractId).call(fn, ...args))
    .setTimeout(120)
    .build();
  let prepared: Awaited<ReturnType<ReturnType<typeof server>['prepareTransaction']>>;
  try {
    prepared = await s.prepareTransaction(tx);
  } catch (err) {
    throw new ChainStepError(
      `the network refused ${fn} in simulation: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  onStep('signing');
  const signed = await sign(prepared.toXDR());
  onStep('submitting');
  const sent = await s.sendTransaction(TransactionBuilder.fromXDR(signed, cfg.network_passphrase));
  if (sent.status !== 'PENDING' && sent.status !== 'DUPLICATE')
    throw new ChainStepError(`the network did not accept ${fn} (${sent.status})`);
  const done = await s.pollTransaction(sent.hash, { attempts: 120, sleepStrategy: () => 500 });
  if (done.status !== 'SUCCESS')
    throw new ChainStepError(`${fn} was not confirmed (${done.status}, transaction ${sent.hash})`);
  return sent.hash;
}

export const args = {
  approve: (from: string, spender: string, amount: bigint, liveUntil: number) => [
    new Address(from).toScVal(),
    new Address(spender).toScVal(),
    nativeToScVal(amount, { type: 'i128' }),
    nativeToScVal(liveUntil, { type: 'u32' }),
  ],
  createVault: (user: string, merchant: string, token: string, amount: bigint, interval: number) => [
    new Address(user).toScVal(),
    new Address(merchant).toScVal(),
    new Address(token).toScVal(),
    nativeToScVal(amount, { type: 'i128' }),
    nativeToScVal(BigInt(interval), { type: 'u64' }),
  ],
};
