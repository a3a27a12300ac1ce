// The RPC guard: every promise-returning call is timed under its method name, failures included;
// internal calls through `this` are not counted twice; a call that outlives the limit fails with
// a clear error; whatever the SDK throws leaves as an RpcCallError that carries no URL, headers
// or body.
import { describe, expect, it } from 'vitest';
import { guardedRpc, normalizeRpcError, RpcCallError } from '../../src/chain/guarded-rpc.ts';

class FakeServer {
  url = 'http://127.0.0.1:1';
  httpClient = { defaults: {} as { timeout?: number } };
  async getLedgerEntries() {
    return ['entry'];
  }
  async getAccount() {
    return (await this.getLedgerEntries())[0];
  }
  async sendTransaction(): Promise<never> {
    throw new Error('refused');
  }
  hang(): Promise<never> {
    return new Promise(() => {});
  }
  describe() {
    return 'plain';
  }
}

describe('guardedRpc', () => {
  it('times each outer call by method, failures included', async () => {
    const seen: Array<[string, number]> = [];
    const server = guardedRpc(new FakeServer(), {
      timeoutMs: 1000,
      observe: (method, seconds) => seen.push([method, seconds]),
    });
    expect(await server.getAccount()).toBe('entry');
    await expect(server.sendTransaction()).rejects.toThrow('refused');
    expect(server.describe()).toBe('plain');
    expect(server.url).toBe('http://127.0.0.1:1');
    expect(seen.map(([m]) => m)).toEqual(['getAccount', 'sendTransaction']);
    for (const [, s] of seen) expect(s).toBeGreaterThanOrEqual(0);
  });

  it('gives the SDK client the limit and fails a hung call when it passes', async () => {
    const bare = new FakeServer();
    const server = guardedRpc(bare, { timeoutMs: 50 });
    expect(bare.httpClient.defaults.timeout).toBe(50);
    const started = Date.now();
    const err = await server.hang().catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err).toBeInstanceOf(RpcCallError);
    expect(err).toMatchObject({ method: 'hang', timedOut: true, answered: false, message: 'no answer within 50 ms' });
  });

  it('keeps only method, status, code and message of whatever the SDK throws', () => {
    const url = 'https://rpc.example.com/key/SECRETAPIKEY';
    // An HTTP client error carries the whole request.
    const http = Object.assign(new Error(`Request failed with status code 503 for ${url}`), {
      response: { status: 503, data: 'x' },
      config: { url, headers: { Authorization: 'Bearer abc' }, data: '{"jsonrpc":"2.0"}' },
    });
    const out = normalizeRpcError('simulateTransaction', http, url);
    expect(out.toJSON()).toEqual({
      type: 'RpcCallError',
      method: 'simulateTransaction',
      status: 503,
      code: undefined,
      message: 'Request failed with status code 503 for <rpc>',
    });
    expect(JSON.stringify(out)).not.toContain('SECRETAPIKEY');
    expect(JSON.stringify(out)).not.toContain('Bearer');
    // A JSON-RPC error object: the server answered.
    expect(normalizeRpcError('sendTransaction', { code: -32602, message: 'invalid_xdr' })).toMatchObject({
      answered: true,
      rpcCode: -32602,
      message: 'invalid_xdr (JSON-RPC -32602)',
    });
    // fetch's reason sits in its cause.
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(normalizeRpcError('getTransaction', refused).message).toBe('fetch failed (ECONNREFUSED)');
  });
});
