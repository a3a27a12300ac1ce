// The JSON-RPC envelope and the read methods, over raw HTTP where the SDK would hide
// the detail (error objects, string-vs-number fields), and through the SDK otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hash, Keypair, xdr } from '@stellar/stellar-sdk';
import { kp, startTestDevnet, type Ctx } from './support/devnet.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet(2);
});
afterAll(() => ctx.devnet.close());

// Results are whatever the method returns; the tests read them field by field.
type Reply = { result?: any; error?: { code: number; message: string } };

async function raw(body: string, init: RequestInit = {}): Promise<{ status: number; json: Reply }> {
  const res = await fetch(ctx.devnet.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...init,
  });
  return { status: res.status, json: (res.status === 200 ? await res.json() : {}) as Reply };
}
const call = (method: string, params?: unknown) =>
  raw(JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params !== undefined && { params }) }));

describe('JSON-RPC envelope', () => {
  it('answers errors with HTTP 200 and {code, message}, echoing the id', async () => {
    expect(await call('nope')).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'method not found' } },
    });
    expect((await raw('{not json')).json.error?.code).toBe(-32700);
    expect((await raw(JSON.stringify({ id: 1, method: 'getHealth' }))).json.error?.code).toBe(-32600);
    expect((await call('getLedgerEntries', ['x'])).json.error?.code).toBe(-32602);
  });

  it('accepts params null and ignores unknown params', async () => {
    expect((await call('getHealth', null)).json.result.status).toBe('healthy');
    expect((await call('getNetwork', { surprise: true })).json.result.passphrase).toBe(ctx.devnet.passphrase);
  });

  it('refuses non-POST (405) and non-JSON content (415)', async () => {
    expect((await fetch(ctx.devnet.rpcUrl)).status).toBe(405);
    expect((await raw('{}', { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('validates method params like stellar-rpc', async () => {
    expect((await call('getTransaction', { hash: 'abc' })).json.error).toEqual({
      code: -32602,
      message: 'unexpected hash length (3)',
    });
    expect((await call('getTransaction', { hash: 'z'.repeat(64) })).json.error?.code).toBe(-32602);
    expect((await call('sendTransaction', { transaction: 'AAAA' })).json.error).toEqual({
      code: -32602,
      message: 'invalid_xdr',
    });
    expect((await call('getLedgerEntries', { keys: ['!!'] })).json.error?.message).toBe(
      'cannot unmarshal key value !! at index 0',
    );
    const ttlKey = xdr.LedgerKey.ttl(new xdr.LedgerKeyTtl({ keyHash: hash(Buffer.from('x')) })).toXdr('base64');
    expect((await call('getLedgerEntries', { keys: [ttlKey] })).json.error?.message).toBe(
      'ledger ttl entries cannot be queried directly',
    );
    expect((await call('getLedgerEntries', { keys: Array(201).fill(ttlKey) })).json.error?.message).toBe(
      'key count (201) exceeds maximum supported (200)',
    );
    expect((await call('getEvents', {})).json.error?.code).toBe(-32602);
  });

  it('simulateTransaction request problems come back as result.error, not JSON-RPC errors', async () => {
    const res = await call('simulateTransaction', { transaction: 'AAAA' });
    expect(res.json.result).toEqual({ error: 'Could not unmarshal transaction', latestLedger: 0 });
  });
});

describe('read methods', () => {
  it('getLatestLedger has string closeTime and decodable header/meta', async () => {
    const { result } = (await call('getLatestLedger')).json;
    expect(typeof result.closeTime).toBe('string');
    expect(typeof result.sequence).toBe('number');
    expect(xdr.LedgerHeader.fromXdr(result.headerXdr, 'base64').ledgerSeq).toBe(result.sequence);
    expect(xdr.LedgerCloseMeta.fromXdr(result.metadataXdr, 'base64').type).toBe('v2');
    const viaSdk = await ctx.server.getLatestLedger();
    expect(viaSdk.id).toBe(result.id);
  });

  it('getLedgerEntries keeps request order, omits missing keys, has no TTL for accounts', async () => {
    const key = (g: string) =>
      xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(g).xdrAccountId() })).toXdr(
        'base64',
      );
    const [a, b] = [kp(ctx, 1).publicKey(), kp(ctx, 0).publicKey()];
    const { result } = (await call('getLedgerEntries', { keys: [key(a), key(Keypair.random().publicKey()), key(b)] }))
      .json;
    expect(result.entries.map((e: { key: string }) => e.key)).toEqual([key(a), key(b)]);
    expect(result.entries[0].liveUntilLedgerSeq).toBeUndefined();
    const data = xdr.LedgerEntryData.fromXdr(result.entries[0].xdr, 'base64');
    expect(xdr.expectUnionVariant(data, 'account').account.balance).toBe(100000000000n);
  });

  it('getNetwork and getHealth through the SDK', async () => {
    const network = await ctx.server.getNetwork();
    expect(network.passphrase).toBe('Local Billing Devnet ; 2026');
    expect(typeof network.protocolVersion).toBe('number');
    expect((await ctx.server.getHealth()).status).toBe('healthy');
    await expect(ctx.server.getAccount(Keypair.random().publicKey())).rejects.toThrow(/Account not found/);
  });
});
