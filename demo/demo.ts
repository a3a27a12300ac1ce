// `npm run demo`: the whole story offline. Starts the local Soroban network and the billing
// service (embedded database in a temp folder), then walks one subscriber through two cycles.
// The merchant and subscriber keys are throw-away accounts on the local network.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Address, Contract, Keypair, nativeToScVal, rpc, scValToNative, TransactionBuilder, type xdr } from '@stellar/stellar-sdk';

const root = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
const step = (n: number, text: string) => console.log(`\n\x1b[1m${n}. ${text}\x1b[0m`);
const show = (label: string, value: unknown) => console.log(`   ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

function start(args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return child;
}

async function firstLine(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited with code ${code}`)));
    lines.once('line', resolve);
  });
  lines.on('line', () => {});
  return line;
}

async function waitForHttp(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function main() {
  step(1, 'Start the local Soroban network (1 s ledgers) and the billing service (embedded PostgreSQL)');
  const devnet = JSON.parse(await firstLine(start(['devnet/src/cli.ts', '--port', '0', '--ledger-ms', '1000', '--json'], {}, root)));
  show('RPC', devnet.rpcUrl);
  show('vault contract', devnet.contracts.vault);
  show('token contract', devnet.contracts.token);
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-demo-'));
  const port = 3900 + Math.floor(Math.random() * 90);
  const api = `http://127.0.0.1:${port}`;
  start(['src/main.ts'], {
    PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '',
    SOROBAN_RPC_URL: devnet.rpcUrl, STELLAR_NETWORK_PASSPHRASE: devnet.passphrase, CONTRACT_ID: devnet.contracts.vault,
    TX_POLL_INTERVAL_MS: '250',
  }, join(root, 'service'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  await waitForHttp(`${api}/health`);
  show('service', api);

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    console.log(`   ${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return { status: res.status, json: json as Record<string, any> };
  };
  const control = (path: string, body: unknown = {}) =>
    fetch(`${devnet.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const invoke = async (signer: Keypair, contractId: string, fn: string, args: xdr.ScVal[]) => {
    const tx = new TransactionBuilder(await server.getAccount(signer.publicKey()), { fee: '100', networkPassphrase: devnet.passphrase })
      .addOperation(new Contract(contractId).call(fn, ...args)).setTimeout(30).build();
    const prepared = await server.prepareTransaction(tx);
    prepared.sign(signer);
    const sent = await server.sendTransaction(prepared);
    const done = await server.pollTransaction(sent.hash, { attempts: 60, sleepStrategy: () => 250 });
    show(`${fn} on-chain`, `${done.status} (${sent.hash.slice(0, 12)}…)`);
    return done;
  };
  const balance = async (who: string) => {
    const tx = new TransactionBuilder(await server.getAccount(devnet.accounts[0].publicKey), { fee: '100', networkPassphrase: devnet.passphrase })
      .addOperation(new Contract(devnet.contracts.token).call('balance', new Address(who).toScVal())).setTimeout(30).build();
    const sim = await server.simulateTransaction(tx);
    if (!rpc.Api.isSimulationSuccess(sim) || !sim.result) throw new Error('balance failed');
    return scValToNative(sim.result.retval) as bigint;
  };

  step(2, 'A merchant and a plan: 10 tokens (7 decimals) every 8 seconds (short, so the demo is quick)');
  const merchantKey = Keypair.fromSecret(devnet.accounts[0].secret);
  const merchant = await call('POST', '/merchants', { name: 'Demo Coffee Club', wallet_address: merchantKey.publicKey() });
  const plan = await call('POST', '/plans', { merchant_id: merchant.json.merchant.id, name: 'Monthly beans', token_amount: 100000000, interval_seconds: 8, token_contract_id: devnet.contracts.token });

  step(3, 'The subscriber approves the vault as spender and creates its vault on-chain');
  const user = Keypair.fromSecret(devnet.accounts[1].secret);
  await control('/mint', { to: user.publicKey(), amount: '1000000000' });
  const { sequence } = (await (await fetch(`${devnet.controlUrl}/state`)).json()) as { sequence: number };
  const addr = (a: string) => new Address(a).toScVal();
  await invoke(user, devnet.contracts.token, 'approve', [addr(user.publicKey()), addr(devnet.contracts.vault), nativeToScVal(1000000000n, { type: 'i128' }), nativeToScVal(sequence + 10000, { type: 'u32' })]);
  await invoke(user, devnet.contracts.vault, 'create_vault', [addr(user.publicKey()), addr(merchantKey.publicKey()), addr(devnet.contracts.token), nativeToScVal(100000000n, { type: 'i128' }), nativeToScVal(8n, { type: 'u64' })]);

  step(4, 'Record the subscription');
  const sub = await call('POST', '/subscriptions', { plan_id: plan.json.plan.id, customer_wallet_address: user.publicKey() });
  const subscriptionId = sub.json.subscription.id;

  step(5, 'Collect the first cycle');
  show('balances before (subscriber / merchant)', `${await balance(user.publicKey())} / ${await balance(merchantKey.publicKey())}`);
  const first = await call('POST', '/trigger-pull', { subscription_id: subscriptionId, merchant_secret: merchantKey.secret() });
  if (first.status !== 200) throw new Error('first pull did not confirm');
  show('balances after (subscriber / merchant)', `${await balance(user.publicKey())} / ${await balance(merchantKey.publicKey())}`);
  await call('GET', `/subscriptions/${subscriptionId}`);

  step(6, 'Pull again at once: refused, the cycle is not due');
  const early = await call('POST', '/trigger-pull', { subscription_id: subscriptionId, merchant_secret: merchantKey.secret() });
  if (early.status !== 500 || early.json.code !== 'too_early') throw new Error('expected too_early');

  step(7, 'Advance ledger time by 8 s, and wait until next_billing_date passes on the service clock');
  await control('/advance-time', { seconds: 8 });
  const due = new Date((await call('GET', `/subscriptions/${subscriptionId}`)).json.subscription.next_billing_date).getTime();
  await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now() + 200)));

  step(8, 'Collect the second cycle');
  const second = await call('POST', '/trigger-pull', { subscription_id: subscriptionId, merchant_secret: merchantKey.secret() });
  if (second.status !== 200) throw new Error('second pull did not confirm');
  show('balances after (subscriber / merchant)', `${await balance(user.publicKey())} / ${await balance(merchantKey.publicKey())}`);
  await call('GET', `/subscriptions/${subscriptionId}/pulls`);
  console.log('\n\x1b[32mDemo complete: two cycles collected on the local network, each exactly once.\x1b[0m');
}

main()
  .then(() => { for (const c of children) c.kill('SIGTERM'); })
  .catch((err) => { console.error(err); for (const c of children) c.kill('SIGTERM'); process.exit(1); });
