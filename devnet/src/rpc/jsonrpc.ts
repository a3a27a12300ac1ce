// JSON-RPC 2.0 envelope handling as stellar-rpc (jrpc2) answers it: by-name params
// only, errors as {code, message} with HTTP 200, unknown params keys ignored.
import type { Network } from '../network/network.ts';

export class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export const invalidParams = (message: string) => new RpcError(-32602, message);

export type Params = Record<string, unknown>;
export type Method = (net: Network, params: Params) => unknown;

type Reply = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: { code: number; message: string } };

/** Returns the reply body, or undefined when nothing is to be sent (only notifications). */
export function handleRpcBody(net: Network, methods: Record<string, Method>, raw: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return failure(null, -32700, 'parse error');
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return failure(null, -32600, 'invalid request');
    const replies = body.map((b) => handleOne(net, methods, b)).filter((r) => r !== undefined);
    return replies.length > 0 ? replies : undefined;
  }
  return handleOne(net, methods, body);
}

function handleOne(net: Network, methods: Record<string, Method>, req: unknown): Reply | undefined {
  if (typeof req !== 'object' || req === null) return failure(null, -32600, 'invalid request');
  const r = req as Record<string, unknown>;
  const id = r.id ?? null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') return failure(id, -32600, 'invalid request');
  const notification = !('id' in r);
  const method = Object.hasOwn(methods, r.method) ? methods[r.method] : undefined;
  if (!method) return notification ? undefined : failure(id, -32601, 'method not found');
  if (r.params !== undefined && r.params !== null && (typeof r.params !== 'object' || Array.isArray(r.params))) {
    return failure(id, -32602, 'invalid parameters');
  }
  net.countCall(r.method);
  try {
    const result = method(net, (r.params ?? {}) as Params);
    return notification ? undefined : { jsonrpc: '2.0', id, result };
  } catch (e) {
    if (e instanceof RpcError) return failure(id, e.code, e.message);
    return failure(id, -32603, e instanceof Error ? e.message : String(e));
  }
}

function failure(id: unknown, code: number, message: string): Reply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
