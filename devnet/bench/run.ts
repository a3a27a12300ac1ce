// `npm run bench -w devnet`: how fast the devnet simulates pull_funds and how many
// transactions it includes per ledger. Prints figures; never fails a build.
// The devnet runs as its own process (the CLI), so the client's CPU use is not
// charged to it; both still share this machine.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import {
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  TransactionBuilder,
  type Transaction,
  type xdr,
} from '@stellar/stellar-sdk';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 400);
const SIM_SECONDS = Number(process.env.BENCH_SIM_SECONDS ?? 5);
const CONCURRENCY = 32;

type Info = {
  rpcUrl: string;
  controlUrl: string;
  passphrase: string;
  contracts: { vault: string; token: string };
  accounts: { secret: string }[];
};

const child = spawn(
  process.execPath,
  ['src/cli.ts', '--json', '--port', '0', '--ledger-ms', '0', '--accounts', String(PAIRS * 2)],
  {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let line = '';
while (!line.includes('\n')) line += String((await once(child.stdout, 'data'))[0]);
const info = JSON.parse(line) as Info;
const server = new rpc.Server(info.rpcUrl, { allowHttp: true });
const keys = info.accounts.map((a) => Keypair.fromSecret(a.secret));
const users = keys.slice(0, PAIRS);
const merchants = keys.slice(PAIRS);
const { vault, token } = info.contracts;

const post = (path: string, body: unknown = {}) =>
  fetch(`${info.controlUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());
const addr = (a: string) => nativeToScVal(a, { type: 'address' });
const num = (n: bigint | number, type: 'i128' | 'u32' | 'u64') => nativeToScVal(n, { type });

async function build(source: Keypair, contract: string, fn: string, args: xdr.ScVal[]): Promise<Transaction> {
  const account = await server.getAccount(source.publicKey());
  return new TransactionBuilder(account, { fee: '100', networkPassphrase: info.passphrase })
    .addOperation(Operation.invokeContractFunction({ contract, function: fn, args }))
    .setTimeout(600)
    .build();
}

async function prepared(source: Keypair, contract: string, fn: string, args: xdr.ScVal[]) {
  const tx = await server.prepareTransaction(await build(source, contract, fn, args));
  tx.sign(source);
  return tx;
}

/** CPU seconds the devnet process has used (Linux /proc), to report throughput per devnet core. */
function devnetCpuSeconds(): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function inBatches<T>(items: T[], f: (t: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += CONCURRENCY) await Promise.all(items.slice(i, i + CONCURRENCY).map(f));
}

/** One ledger's worth: every source sends one transaction, then a single ledger closes. */
async function oneLedger(label: string, txs: Transaction[]) {
  const t0 = performance.now();
  const sent: string[] = [];
  await inBatches(txs, async (tx) => {
    const res = await server.sendTransaction(tx);
    if (res.status !== 'PENDING') throw new Error(`${label}: send ${res.status}`);
    sent.push(res.hash);
  });
  const tSent = performance.now();
  const closed = (await post('close-ledger')) as { sequence: number };
  const tClosed = performance.now();
  let ok = 0;
  await inBatches(sent, async (h) => {
    const r = await server.getTransaction(h);
    if (r.status === 'SUCCESS') ok++;
  });
  return { sent: sent.length, ok, ledger: closed.sequence, sendMs: tSent - t0, closeMs: tClosed - tSent };
}

try {
  console.log(`devnet bench: ${PAIRS} subscriber/merchant pairs, client concurrency ${CONCURRENCY}`);
  await inBatches(users, (u) => post('mint', { to: u.publicKey(), amount: '1000000000000' }));
  const latest = await server.getLatestLedger();
  const approvals = await Promise.all(
    users.map((u) =>
      prepared(u, token, 'approve', [
        addr(u.publicKey()),
        addr(vault),
        num(10n ** 12n, 'i128'),
        num(latest.sequence + 10_000, 'u32'),
      ]),
    ),
  );
  const a = await oneLedger('approve', approvals);
  const creates = await Promise.all(
    users.map((u, i) =>
      prepared(u, vault, 'create_vault', [
        addr(u.publicKey()),
        addr(merchants[i].publicKey()),
        addr(token),
        num(1_000_000n, 'i128'),
        num(3600n, 'u64'),
      ]),
    ),
  );
  const c = await oneLedger('create_vault', creates);
  console.log(`setup: approve ${a.ok}/${a.sent} and create_vault ${c.ok}/${c.sent} included, one ledger each`);

  // 1. simulateTransaction of pull_funds, many clients at once.
  const pullTx = await build(merchants[0], vault, 'pull_funds', [
    addr(users[0].publicKey()),
    addr(merchants[0].publicKey()),
  ]);
  let sims = 0;
  const cpu0 = devnetCpuSeconds();
  const simEnd = performance.now() + SIM_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < simEnd) {
        const r = await server.simulateTransaction(pullTx);
        if (rpc.Api.isSimulationError(r)) throw new Error(r.error);
        sims++;
      }
    }),
  );
  const simCpu = devnetCpuSeconds() - cpu0;
  console.log(
    `simulateTransaction(pull_funds): ${(sims / SIM_SECONDS).toFixed(0)} simulations/s wall (${sims} in ${SIM_SECONDS} s); ` +
      `${(sims / simCpu).toFixed(0)} per devnet CPU-second (HTTP + JSON-RPC included)`,
  );

  // 2. prepare + send + include: one pull per merchant, all in one ledger.
  const tPrep = performance.now();
  const pulls = await Promise.all(
    merchants.map((m, i) => prepared(m, vault, 'pull_funds', [addr(users[i].publicKey()), addr(m.publicKey())])),
  );
  const prepMs = performance.now() - tPrep;
  const p = await oneLedger('pull_funds', pulls);
  console.log(
    `prepareTransaction(pull_funds) x${PAIRS}: ${((PAIRS / prepMs) * 1000).toFixed(0)}/s (includes getAccount)`,
  );
  console.log(`sendTransaction: ${((p.sent / p.sendMs) * 1000).toFixed(0)} tx/s accepted`);
  console.log(
    `ledger ${p.ledger}: ${p.ok}/${p.sent} pull_funds included in one ledger; applying them took ${p.closeMs.toFixed(0)} ms (${((p.ok / p.closeMs) * 1000).toFixed(0)} tx/s)`,
  );
  const calls = await (await fetch(`${info.controlUrl}/rpc-calls`)).json();
  console.log('rpc calls served:', JSON.stringify(calls));
} finally {
  child.kill('SIGTERM');
}
