// Reading the chain through Soroban JSON-RPC as any client would: getTransaction (one hash),
// getEvents (the token's CAP-67 `transfer` events) and getHealth (the retention window). Decoding is
// done here with the SDK's XDR types; nothing is shared with the service.
import { Address, nativeToScVal, scValToNative, xdr } from '@stellar/stellar-sdk';

export class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export async function rpcCall<T>(url: string, method: string, params?: unknown, timeoutMs = 15_000): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new RpcError(body.error.code, `${method}: ${body.error.message}`);
  return body.result as T;
}

export interface Transfer {
  token: string;
  from: string;
  to: string;
  amount: bigint;
}

export interface ChainTx {
  hash: string;
  status: 'SUCCESS' | 'FAILED' | 'NOT_FOUND';
  ledger?: number;
  /** Ledger close time, unix seconds. */
  closeTime?: number;
  /** The invoked contract and function, from the envelope. */
  contract?: string;
  fn?: string;
  args?: unknown[];
  transfers: Transfer[];
}

const addressOf = (v: xdr.ScVal | undefined) =>
  v?.type === 'scvAddress' ? Address.fromScAddress(v.address).toString() : undefined;

function amountOf(data: xdr.ScVal): bigint | undefined {
  if (data.type === 'scvI128') return BigInt(scValToNative(data) as bigint);
  // CAP-67: a muxed destination makes the data a map {amount, to_muxed_id}.
  if (data.type === 'scvMap') {
    const entry = data.map?.find((e) => e.key.type === 'scvSymbol' && e.key.sym.toString() === 'amount');
    return entry ? amountOf(entry.val) : undefined;
  }
  return undefined;
}

/** The SAC `transfer` event [transfer, from, to, name] → amount, or undefined for any other event. */
export function decodeTransfer(contractId: string, topics: xdr.ScVal[], data: xdr.ScVal): Transfer | undefined {
  if (topics[0]?.type !== 'scvSymbol' || topics[0].sym.toString() !== 'transfer') return undefined;
  const from = addressOf(topics[1]);
  const to = addressOf(topics[2]);
  const amount = amountOf(data);
  if (!from || !to || amount === undefined) return undefined;
  return { token: contractId, from, to, amount };
}

function contractEventTransfer(ev: xdr.ContractEvent): Transfer | undefined {
  if (ev.type.name !== 'contract' || !ev.contractId) return undefined;
  const { topics, data } = ev.body.v0;
  return decodeTransfer(Address.contract(ev.contractId.value).toString(), topics, data);
}

function invocationOf(envelopeXdr: string): { contract?: string; fn?: string; args?: unknown[] } {
  try {
    const env = xdr.TransactionEnvelope.fromXdr(envelopeXdr, 'base64');
    const v1 =
      env.type === 'envelopeTypeTx'
        ? env.v1
        : env.type === 'envelopeTypeTxFeeBump'
          ? env.feeBump.tx.innerTx.v1
          : undefined;
    const op = v1?.tx.operations[0]?.body;
    if (op?.type !== 'invokeHostFunction') return {};
    const hf = op.invokeHostFunctionOp.hostFunction;
    if (hf.type !== 'hostFunctionTypeInvokeContract') return {};
    const call = hf.invokeContract;
    return {
      contract: Address.fromScAddress(call.contractAddress).toString(),
      fn: call.functionName.toString(),
      args: call.args.map((a) => addressOf(a) ?? scValToNative(a)),
    };
  } catch {
    return {};
  }
}

interface RawTx {
  status: 'SUCCESS' | 'FAILED' | 'NOT_FOUND';
  txHash?: string;
  ledger?: number;
  createdAt?: string | number;
  envelopeXdr?: string;
  events?: { contractEventsXdr?: string[][] };
}

function parseRawTx(hash: string, r: RawTx): ChainTx {
  if (r.status === 'NOT_FOUND') return { hash, status: 'NOT_FOUND', transfers: [] };
  const transfers: Transfer[] = [];
  for (const op of r.events?.contractEventsXdr ?? []) {
    for (const b64 of op) {
      const t = contractEventTransfer(xdr.ContractEvent.fromXdr(b64, 'base64'));
      if (t) transfers.push(t);
    }
  }
  return {
    hash,
    status: r.status,
    ledger: r.ledger,
    closeTime: r.createdAt === undefined ? undefined : Number(r.createdAt),
    ...(r.envelopeXdr ? invocationOf(r.envelopeXdr) : {}),
    transfers,
  };
}

export async function getTx(rpcUrl: string, hash: string): Promise<ChainTx> {
  const r = await rpcCall<RawTx>(rpcUrl, 'getTransaction', { hash });
  return parseRawTx(hash, r);
}

/** Many hashes, a few at a time. */
export async function getTxs(rpcUrl: string, hashes: string[], parallel = 8): Promise<Map<string, ChainTx>> {
  const out = new Map<string, ChainTx>();
  const queue = [...hashes];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let h = queue.shift(); h !== undefined; h = queue.shift()) out.set(h, await getTx(rpcUrl, h));
    }),
  );
  return out;
}

export interface Health {
  latestLedger: number;
  oldestLedger: number;
  latestLedgerCloseTime: number;
  oldestLedgerCloseTime: number;
}

export async function health(rpcUrl: string): Promise<Health> {
  const h = await rpcCall<Record<string, unknown>>(rpcUrl, 'getHealth');
  return {
    latestLedger: Number(h.latestLedger),
    oldestLedger: Number(h.oldestLedger),
    latestLedgerCloseTime: Number(h.latestLedgerCloseTime),
    oldestLedgerCloseTime: Number(h.oldestLedgerCloseTime),
  };
}

export interface TransferEvent extends Transfer {
  txHash: string;
  ledger: number;
  closedAt: string;
}

/** Every `transfer` event of these tokens from `startLedger` to the latest ledger. */
export async function transferEvents(rpcUrl: string, tokens: string[], startLedger: number): Promise<TransferEvent[]> {
  const transferSym = nativeToScVal('transfer', { type: 'symbol' }).toXDR('base64');
  const filters = [{ type: 'contract', contractIds: tokens.slice(0, 5), topics: [[transferSym, '*', '*', '**']] }];
  const out: TransferEvent[] = [];
  let page: { startLedger?: number; pagination: { limit: number; cursor?: string } } = {
    startLedger,
    pagination: { limit: 1000 },
  };
  for (;;) {
    const r = await rpcCall<{
      events: {
        contractId: string;
        txHash: string;
        ledger: number;
        ledgerClosedAt: string;
        topic: string[];
        value: string;
      }[];
      cursor: string;
    }>(rpcUrl, 'getEvents', { filters, ...page });
    for (const e of r.events) {
      const t = decodeTransfer(
        e.contractId,
        e.topic.map((b) => xdr.ScVal.fromXdr(b, 'base64')),
        xdr.ScVal.fromXdr(e.value, 'base64'),
      );
      if (t) out.push({ ...t, txHash: e.txHash, ledger: e.ledger, closedAt: e.ledgerClosedAt });
    }
    if (r.events.length < page.pagination.limit) break;
    page = { pagination: { limit: 1000, cursor: r.cursor } };
  }
  return out;
}
