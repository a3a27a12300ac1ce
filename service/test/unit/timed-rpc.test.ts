// The RPC latency hook: every promise-returning call is timed under its method name, failures
// included; internal calls through `this` are not counted twice; without a hook nothing changes.
import { describe, expect, it } from 'vitest';
import { timedRpc } from '../../src/chain/timed-rpc.ts';

class FakeServer {
  url = 'http://127.0.0.1:1';
  async getLedgerEntries() {
    return ['entry'];
  }
  async getAccount() {
    return (await this.getLedgerEntries())[0];
  }
  async sendTransaction(): Promise<never> {
    throw new Error('refused');
  }
  describe() {
    return 'plain';
  }
}

describe('timedRpc', () => {
  it('times each outer call by method, failures included', async () => {
    const seen: Array<[string, number]> = [];
    const server = timedRpc(new FakeServer(), (method, seconds) => seen.push([method, seconds]));
    expect(await server.getAccount()).toBe('entry');
    await expect(server.sendTransaction()).rejects.toThrow('refused');
    expect(server.describe()).toBe('plain');
    expect(server.url).toBe('http://127.0.0.1:1');
    expect(seen.map(([m]) => m)).toEqual(['getAccount', 'sendTransaction']);
    for (const [, s] of seen) expect(s).toBeGreaterThanOrEqual(0);
  });

  it('returns the server itself when no one listens', () => {
    const server = new FakeServer();
    expect(timedRpc(server, undefined)).toBe(server);
  });
});
