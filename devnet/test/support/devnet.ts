// Test harness: a devnet on a free port that closes ledgers only on demand, an SDK
// client pointed at it, and helpers for the build → prepare → sign → send → poll loop.
import {
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  TransactionBuilder,
  type Transaction,
  type xdr,
} from '@stellar/stellar-sdk';
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/index.ts';

export type Ctx = { devnet: Devnet; server: rpc.Server };

export async function startTestDevnet(accounts = 6, opts: DevnetOptions = {}): Promise<Ctx> {
  const devnet = await startDevnet({ port: 0, ledgerMs: 0, accounts, ...opts });
  return { devnet, server: new rpc.Server(devnet.rpcUrl, { allowHttp: true }) };
}

export const kp = (ctx: Ctx, i: number) => Keypair.fromSecret(ctx.devnet.accounts[i].secret);

export async function control<T = unknown>(ctx: Ctx, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${ctx.devnet.controlUrl}/${path}`, {
    method: body === undefined && !POSTS.has(path) ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? (POSTS.has(path) ? '{}' : undefined) : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`control ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}
const POSTS = new Set(['close-ledger', 'pause', 'resume', 'faults/clear', 'reset', 'snapshot']);

export const closeLedger = (ctx: Ctx) => control<{ sequence: number; closeTime: number }>(ctx, 'close-ledger');

export const addr = (a: string) => nativeToScVal(a, { type: 'address' });

/** The InvokeHostFunctionResult arm of a one-operation transaction's result, e.g. 'invokeHostFunctionTrapped'. */
export function opResultCode(result: xdr.TransactionResult): string | undefined {
  const r = result.result;
  if (r.type !== 'txSuccess' && r.type !== 'txFailed') return undefined;
  const op = r.results[0];
  if (op?.type !== 'opInner' || op.tr.type !== 'invokeHostFunction') return undefined;
  return op.tr.invokeHostFunctionResult.type;
}
export const i128 = (n: bigint | number) => nativeToScVal(BigInt(n), { type: 'i128' });
export const u32 = (n: number) => nativeToScVal(n, { type: 'u32' });
export const u64 = (n: bigint | number) => nativeToScVal(BigInt(n), { type: 'u64' });

export type BuildOpts = {
  timeoutSeconds?: number;
  auth?: xdr.SorobanAuthorizationEntry[];
  timebounds?: { minTime: number; maxTime: number };
  /** Inclusion fee bid (stroops); prepareTransaction adds the resource fee. Default 100. */
  fee?: number;
};

/** An unsigned, unprepared invocation from `source` (fee bid 100, like the service builds it). */
export async function buildCall(
  ctx: Ctx,
  source: Keypair,
  contract: string,
  fn: string,
  args: xdr.ScVal[],
  opts: BuildOpts = {},
): Promise<Transaction> {
  const account = await ctx.server.getAccount(source.publicKey());
  const builder = new TransactionBuilder(account, {
    fee: String(opts.fee ?? 100),
    networkPassphrase: ctx.devnet.passphrase,
  }).addOperation(Operation.invokeContractFunction({ contract, function: fn, args, auth: opts.auth }));
  // Time bounds from the network's clock, as core checks them against ledger close time (the
  // latest close time may run ahead of the wall clock: advance-time, sub-second ledgers).
  if (opts.timebounds) builder.setTimebounds(opts.timebounds.minTime, opts.timebounds.maxTime);
  else builder.setTimebounds(0, ctx.devnet.control.state().closeTime + (opts.timeoutSeconds ?? 300));
  return builder.build();
}

export async function prepareAndSign(ctx: Ctx, tx: Transaction, signer: Keypair): Promise<Transaction> {
  const prepared = await ctx.server.prepareTransaction(tx);
  prepared.sign(signer);
  return prepared;
}

/** Sends, closes a ledger, and returns getTransaction's answer. */
export async function sendAndClose(ctx: Ctx, tx: Transaction) {
  const sent = await ctx.server.sendTransaction(tx);
  if (sent.status !== 'PENDING') throw new Error(`send ${sent.status}: ${JSON.stringify(sent)}`);
  await closeLedger(ctx);
  return ctx.server.getTransaction(sent.hash);
}

/** The whole happy path for one call signed by its source. */
export async function invokeOk(ctx: Ctx, source: Keypair, contract: string, fn: string, args: xdr.ScVal[]) {
  const tx = await prepareAndSign(ctx, await buildCall(ctx, source, contract, fn, args), source);
  const res = await sendAndClose(ctx, tx);
  if (res.status !== 'SUCCESS') throw new Error(`${fn} ${res.status}`);
  return res;
}

/** Reads a contract function's return value through simulation only. */
export async function view(ctx: Ctx, contract: string, fn: string, args: xdr.ScVal[]) {
  const tx = await buildCall(ctx, kp(ctx, ctx.devnet.accounts.length - 1), contract, fn, args);
  const sim = await ctx.server.simulateTransaction(tx);
  if (rpc.Api.isSimulationError(sim)) throw new Error(sim.error);
  return (sim as rpc.Api.SimulateTransactionSuccessResponse).result!.retval;
}
