// Every call the service makes to Soroban RPC goes through this Proxy over rpc.Server:
//  - a time limit per call (RPC_TIMEOUT_MS): the SDK's HTTP client gets the same limit so the
//    socket is abandoned, and the call's promise is raced against a timer as well, so no call
//    (DNS, a black-holed address, a stalled body) can outlive it;
//  - one error type out: the SDK throws raw JSON-RPC error objects, HTTP client errors that carry
//    the whole request (URL with a provider's API key, headers, body) and plain Errors. They leave
//    here as RpcCallError, which keeps only what helps: method, HTTP status, JSON-RPC code, text;
//  - the latency of each call, for the metrics' histogram (by method).
// Calls the SDK makes internally (through `this`) go to the bare server: not timed twice.
export type RpcCallObserver = (method: string, seconds: number) => void;

export interface RpcGuardOptions {
  timeoutMs: number;
  observe?: RpcCallObserver;
  /** Removed from any error text (a hosted RPC's URL may carry a key in its path or query). */
  rpcUrl?: string;
}

export class RpcCallError extends Error {
  override name = 'RpcCallError';
  readonly method: string;
  /** The RPC answered (a JSON-RPC error object): it was reached and refused the request. */
  readonly answered: boolean;
  readonly timedOut: boolean;
  readonly status: number | undefined;
  readonly rpcCode: number | undefined;
  constructor(
    method: string,
    message: string,
    o: { answered?: boolean; timedOut?: boolean; status?: number; rpcCode?: number } = {},
  ) {
    super(message);
    this.method = method;
    this.answered = o.answered ?? false;
    this.timedOut = o.timedOut ?? false;
    this.status = o.status;
    this.rpcCode = o.rpcCode;
  }

  /** What a log line or an answer may show. */
  toJSON(): Record<string, unknown> {
    return { type: this.name, method: this.method, status: this.status, code: this.rpcCode, message: this.message };
  }
}

export function normalizeRpcError(method: string, err: unknown, rpcUrl?: string): RpcCallError {
  if (err instanceof RpcCallError) return err;
  const scrub = (text: string) => (rpcUrl ? text.split(rpcUrl).join('<rpc>') : text);
  if (err && typeof err === 'object' && !(err instanceof Error)) {
    // A JSON-RPC error object, thrown as is by the SDK: the server answered.
    const { code, message } = err as { code?: unknown; message?: unknown };
    const rpcCode = typeof code === 'number' ? code : undefined;
    const text = typeof message === 'string' ? message : 'unknown JSON-RPC error';
    return new RpcCallError(method, scrub(rpcCode === undefined ? text : `${text} (JSON-RPC ${rpcCode})`), {
      answered: true,
      rpcCode,
    });
  }
  const e = err as { message?: unknown; response?: { status?: unknown }; cause?: { code?: unknown } } | undefined;
  const status = typeof e?.response?.status === 'number' ? e.response.status : undefined;
  let text = typeof e?.message === 'string' && e.message !== '' ? e.message : String(err);
  // fetch's own "fetch failed" hides the reason (ECONNREFUSED, ENOTFOUND…) in its cause.
  if (typeof e?.cause?.code === 'string') text = `${text} (${e.cause.code})`;
  return new RpcCallError(method, scrub(text), { status, timedOut: /timeout/i.test(text) });
}

export function guardedRpc<T extends object>(server: T, options: RpcGuardOptions): T {
  const httpClient = (server as { httpClient?: { defaults?: { timeout?: number } } }).httpClient;
  if (httpClient?.defaults) httpClient.defaults.timeout = options.timeoutMs;
  return new Proxy(server, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        let out: unknown;
        try {
          out = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          throw normalizeRpcError(prop, err, options.rpcUrl);
        }
        if (!(out instanceof Promise)) return out;
        let timer: NodeJS.Timeout | undefined;
        const limit = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new RpcCallError(prop, `no answer within ${options.timeoutMs} ms`, { timedOut: true })),
            options.timeoutMs,
          );
        });
        return Promise.race([out, limit])
          .catch((err: unknown) => {
            throw normalizeRpcError(prop, err, options.rpcUrl);
          })
          .finally(() => {
            clearTimeout(timer);
            options.observe?.(prop, (performance.now() - started) / 1000);
          });
      };
    },
  });
}
