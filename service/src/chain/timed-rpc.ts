// Times every call made through an rpc.Server, for the RPC latency histogram (by method). A Proxy
// keeps the gateway's code unchanged: it still calls server.simulateTransaction(...) and friends.
// Calls the SDK makes internally (through `this`) go to the bare server and are not counted twice.
export type RpcCallObserver = (method: string, seconds: number) => void;

export function timedRpc<T extends object>(server: T, observe: RpcCallObserver | undefined): T {
  if (!observe) return server;
  return new Proxy(server, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(out instanceof Promise)) return out;
        return out.finally(() => observe(prop, (performance.now() - started) / 1000));
      };
    },
  });
}
