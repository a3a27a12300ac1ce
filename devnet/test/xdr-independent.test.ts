// Every XDR blob the devnet serves in a full pull flow (fund, mint, approve, create_vault,
// pull_funds through the unmodified SDK client, plus traffic of every credential arm) decoded
// by an independent decoder — the Rust stellar-xdr crate as wasm, @stellar/stellar-xdr-json —
// and re-encoded byte for byte. The raw JSON-RPC answers are captured by a recording proxy
// between the SDK and the devnet.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeEntry, Keypair, rpc, scValToNative, xdr } from '@stellar/stellar-sdk';
import { decode, encode, initSync } from '@stellar/stellar-xdr-json';
import { startDevnet, type Devnet, type TrafficTx } from '../src/index.ts';
import { addr, buildCall, i128, u32, u64, type Ctx } from './support/devnet.ts';

initSync(readFileSync(createRequire(import.meta.url).resolve('@stellar/stellar-xdr-json/stellar_xdr_json_bg.wasm')));

type Captured = { method: string; result: unknown };
const captured: Captured[] = [];
let devnet: Devnet;
let proxy: Server;
let ctx: Ctx;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, ledgerMs: 0, accounts: 2 });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const upstream = await fetch(devnet.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const text = await upstream.text();
      const request = JSON.parse(body) as { method: string };
      const reply = JSON.parse(text) as { result?: unknown };
      if (reply.result !== undefined) captured.push({ method: request.method, result: reply.result });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
  ctx = { devnet, server: new rpc.Server(url, { allowHttp: true }) };
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await devnet.close();
});

const post = async <T>(path: string, body: unknown = {}): Promise<T> => {
  const res = await fetch(`${devnet.controlUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

/** build → prepare → sign → send → close a ledger → getTransaction, through the proxy. */
async function run(
  source: Keypair,
  contract: string,
  fn: string,
  args: xdr.ScVal[],
  auth?: xdr.SorobanAuthorizationEntry[],
) {
  const tx = await ctx.server.prepareTransaction(await buildCall(ctx, source, contract, fn, args, { auth }));
  tx.sign(source);
  const sent = await ctx.server.sendTransaction(tx);
  expect(sent.status).toBe('PENDING');
  await post('close-ledger');
  const res = await ctx.server.pollTransaction(sent.hash, { attempts: 3 });
  expect(res.status).toBe('SUCCESS');
  return res as rpc.Api.GetSuccessfulTransactionResponse;
}

/** The XDR type of each base64 field of each method's answer; paths use [] for array items. */
const XDR_FIELDS: Record<string, Record<string, string>> = {
  getLatestLedger: { headerXdr: 'LedgerHeader', metadataXdr: 'LedgerCloseMeta' },
  getLedgers: { 'ledgers[].headerXdr': 'LedgerHeaderHistoryEntry', 'ledgers[].metadataXdr': 'LedgerCloseMeta' },
  getLedgerEntries: {
    'entries[].key': 'LedgerKey',
    'entries[].xdr': 'LedgerEntryData',
    'entries[].extXdr': 'LedgerEntryExt',
  },
  simulateTransaction: {
    transactionData: 'SorobanTransactionData',
    'results[].auth[]': 'SorobanAuthorizationEntry',
    'results[].xdr': 'ScVal',
    'events[]': 'DiagnosticEvent',
    'stateChanges[].key': 'LedgerKey',
    'stateChanges[].before': 'LedgerEntry',
    'stateChanges[].after': 'LedgerEntry',
  },
  sendTransaction: { errorResultXdr: 'TransactionResult', 'diagnosticEventsXdr[]': 'DiagnosticEvent' },
  getTransaction: {
    envelopeXdr: 'TransactionEnvelope',
    resultXdr: 'TransactionResult',
    resultMetaXdr: 'TransactionMeta',
    'diagnosticEventsXdr[]': 'DiagnosticEvent',
    'events.contractEventsXdr[][]': 'ContractEvent',
    'events.transactionEventsXdr[]': 'TransactionEvent',
  },
  getEvents: { 'events[].topic[]': 'ScVal', 'events[].value': 'ScVal' },
};
/** String fields that are not XDR (anything else that looks like an XDR field fails the test). */
const PLAIN =
  /^(id|hash|txHash|status|closeTime|createdAt|cursor|passphrase|version|commitHash|buildTimestamp|captiveCoreVersion|minResourceFee|error|type|contractId|ledgerClosedAt|ledgerCloseTime|latestLedgerCloseTime|oldestLedgerCloseTime|friendbotUrl|max|min|mode|p\d+|transactionCount)$/;

/** Every string leaf of an answer with its path: "a.b[].c". */
function leaves(v: unknown, path = ''): { path: string; value: string }[] {
  if (typeof v === 'string') return [{ path, value: v }];
  if (Array.isArray(v)) return v.flatMap((x) => leaves(x, `${path}[]`));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, path ? `${path}.${k}` : k));
  return [];
}

describe('independent XDR decoding (stellar-xdr via @stellar/stellar-xdr-json)', () => {
  let pullJson = '';
  let traffic: TrafficTx[] = [];

  it('runs the full pull flow with traffic through the SDK', async () => {
    const user = Keypair.random();
    const merchant = Keypair.random();
    const channel = Keypair.random();
    for (const k of [user, merchant, channel]) await post('fund', { address: k.publicKey() });
    await post('mint', { to: user.publicKey(), amount: '1000000000' });
    const { vault, token } = devnet.contracts;
    const latest = await ctx.server.getLatestLedger();
    await run(user, token, 'approve', [
      addr(user.publicKey()),
      addr(vault),
      i128(500_000_000n),
      u32(latest.sequence + 1000),
    ]);
    await run(user, vault, 'create_vault', [
      addr(user.publicKey()),
      addr(merchant.publicKey()),
      addr(token),
      i128(100_000_000n),
      u64(60n),
    ]);
    ({ transactions: traffic } = await post<{ transactions: TrafficTx[] }>('traffic', { count: 8 }));
    const pulled = await run(merchant, vault, 'pull_funds', [addr(user.publicKey()), addr(merchant.publicKey())]);
    pullJson = decode('TransactionMeta', pulled.resultMetaXdr.toXdr('base64'));
    await post('close-ledger');

    // A channel account pulls the next cycle with the merchant's ADDRESS_V2 entry.
    await post('advance-time', { seconds: 60 });
    await post('close-ledger');
    const sim = await ctx.server.simulateTransaction(
      await buildCall(ctx, channel, vault, 'pull_funds', [addr(user.publicKey()), addr(merchant.publicKey())]),
    );
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error('simulation failed');
    const signed = await authorizeEntry(
      sim.result!.auth[0],
      merchant,
      (await ctx.server.getLatestLedger()).sequence + 50,
      devnet.passphrase,
    );
    expect(signed.credentials.type).toBe('sorobanCredentialsAddressV2');
    await run(channel, vault, 'pull_funds', [addr(user.publicKey()), addr(merchant.publicKey())], [signed]);

    // Reads, a refusal, an error simulation, events and older ledgers.
    await ctx.server.getAccount(user.publicKey());
    await ctx.server.getContractData(
      vault,
      xdr.ScVal.scvMap([
        new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('merchant'), val: addr(merchant.publicKey()) }),
        new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('user'), val: addr(user.publicKey()) }),
      ]),
      rpc.Durability.Persistent,
    );
    const stale = await buildCall(ctx, merchant, vault, 'pull_funds', [
      addr(user.publicKey()),
      addr(merchant.publicKey()),
    ]);
    const early = await ctx.server.simulateTransaction(stale);
    expect(rpc.Api.isSimulationError(early)).toBe(true);
    const prepared = await ctx.server.prepareTransaction(
      await buildCall(ctx, merchant, token, 'balance', [addr(merchant.publicKey())]),
    );
    prepared.sign(user);
    expect((await ctx.server.sendTransaction(prepared)).status).toBe('ERROR');
    await ctx.server.getEvents({ startLedger: 1, filters: [{ contractIds: [token] }] });
    await ctx.server.getLedgers({ startLedger: 1, pagination: { limit: 200 } });
    await ctx.server.getLatestLedger();
    await ctx.server.getHealth();
    await ctx.server.getNetwork();
    await ctx.server.getFeeStats();
    await ctx.server.getVersionInfo();
    for (const t of traffic) await ctx.server.getTransaction(t.hash);
  });

  it('decodes every XDR blob the devnet served and re-encodes it byte for byte', () => {
    const seen = new Map<string, number>();
    let blobs = 0;
    for (const { method, result } of captured) {
      const fields = XDR_FIELDS[method] ?? {};
      for (const { path, value } of leaves(result)) {
        const type = fields[path];
        if (!type) {
          expect(
            PLAIN.test(path.split('.').at(-1)!.replace(/\[\]$/, '')),
            `${method} ${path} is neither XDR nor plain`,
          ).toBe(true);
          continue;
        }
        if (value === '') continue;
        const json = decode(type, value);
        expect(encode(type, json), `${method} ${path} (${type}) round trip`).toBe(value);
        seen.set(`${method} ${path}`, (seen.get(`${method} ${path}`) ?? 0) + 1);
        blobs++;
      }
    }
    // Every kind of blob came by at least once.
    for (const [method, fields] of Object.entries(XDR_FIELDS)) {
      for (const path of Object.keys(fields)) {
        if (method === 'sendTransaction' && path === 'diagnosticEventsXdr[]') continue; // the devnet sends none
        expect(seen.get(`${method} ${path}`), `${method} ${path} never served`).toBeGreaterThan(0);
      }
    }
    expect(blobs).toBeGreaterThan(200);
  });

  it('the independent decoder sees protocol 27, every credential arm and the transfer event', () => {
    const metas = captured
      .filter((c) => c.method === 'getLedgers')
      .flatMap((c) => (c.result as { ledgers: { metadataXdr: string }[] }).ledgers);
    const json = metas.map((l) => decode('LedgerCloseMeta', l.metadataXdr)).join('\n');
    expect(json).toContain('"ledger_version":27');
    for (const arm of [
      '"source_account"',
      '"address":{',
      '"address_v2":{',
      '"address_with_delegates":{',
      '"execution_stages":[[[{',
      '"tx_changes_before":[{"state"',
      '"post_tx_apply_fee_processing":[{"state"',
    ]) {
      expect(json, arm).toContain(arm);
    }
    const meta = JSON.parse(pullJson) as {
      v4: { operations: { events: { body: { v0: { topics: unknown[]; data: unknown } } }[] }[] };
    };
    const transfer = meta.v4.operations[0].events.find(
      (e) => JSON.stringify(e.body.v0.topics[0]) === '{"symbol":"transfer"}',
    )!;
    expect(transfer.body.v0.topics).toHaveLength(4);
    expect(JSON.stringify(transfer.body.v0.topics[3])).toMatch(/^\{"string":"USDC:G[A-Z2-7]{55}"\}$/);
    expect(transfer.body.v0.data).toEqual({ i128: '100000000' });
    expect(scValToNative(xdr.ScVal.fromXdr(encode('ScVal', JSON.stringify(transfer.body.v0.data)), 'base64'))).toBe(
      100_000_000n,
    );
  });
});
