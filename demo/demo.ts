// `npm run demo`: the whole story offline. Starts the local Soroban network and the billing
// service (embedded database in a temp folder), then walks one subscriber through two cycles by
// hand, and three through automatic collection with dunning on a second service.
// The merchant and subscriber keys are throw-away accounts on the local network.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  Address,
  Contract,
  Keypair,
  nativeToScVal,
  rpc,
  scValToNative,
  TransactionBuilder,
  type xdr,
} from '@stellar/stellar-sdk';

const root = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
const step = (n: number, text: string) => console.log(`\n\x1b[1m${n}. ${text}\x1b[0m`);
const show = (label: string, value: unknown) =>
  console.log(`   ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

function start(args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
  const devnet = JSON.parse(
    await firstLine(start(['devnet/src/cli.ts', '--port', '0', '--ledger-ms', '1000', '--json'], {}, root)),
  );
  show('RPC', devnet.rpcUrl);
  show('vault contract', devnet.contracts.vault);
  show('token contract', devnet.contracts.token);
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-demo-'));
  const port = 3900 + Math.floor(Math.random() * 90);
  const api = `http://127.0.0.1:${port}`;
  start(
    ['src/main.ts'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SOROBAN_RPC_URL: devnet.rpcUrl,
      STELLAR_NETWORK_PASSPHRASE: devnet.passphrase,
      CONTRACT_ID: devnet.contracts.vault,
      TX_POLL_INTERVAL_MS: '250',
    },
    join(root, 'service'),
  );
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  await waitForHttp(`${api}/health`);
  show('service', api);

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    console.log(`   ${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return { status: res.status, json: json as Record<string, any> };
  };
  const control = (path: string, body: unknown = {}) =>
    fetch(`${devnet.controlUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const invoke = async (signer: Keypair, contractId: string, fn: string, args: xdr.ScVal[]) => {
    const tx = new TransactionBuilder(await server.getAccount(signer.publicKey()), {
      fee: '100',
      networkPassphrase: devnet.passphrase,
    })
      .addOperation(new Contract(contractId).call(fn, ...args))
      // Core checks time bounds against ledger close time, which advance-time moves: build from it.
      .setTimebounds(0, Number((await server._getLatestLedger()).closeTime) + 60)
      .build();
    const prepared = await server.prepareTransaction(tx);
    prepared.sign(signer);
    const sent = await server.sendTransaction(prepared);
    const done = await server.pollTransaction(sent.hash, { attempts: 60, sleepStrategy: () => 250 });
    show(`${fn} on-chain`, `${done.status} (${sent.hash.slice(0, 12)}…)`);
    return done;
  };
  const balance = async (who: string) => {
    const tx = new TransactionBuilder(await server.getAccount(devnet.accounts[0].publicKey), {
      fee: '100',
      networkPassphrase: devnet.passphrase,
    })
      .addOperation(new Contract(devnet.contracts.token).call('balance', new Address(who).toScVal()))
      .setTimeout(30)
      .build();
    const sim = await server.simulateTransaction(tx);
    if (!rpc.Api.isSimulationSuccess(sim) || !sim.result) throw new Error('balance failed');
    return scValToNative(sim.result.retval) as bigint;
  };

  step(2, 'A merchant and a plan: 10 tokens (7 decimals) every 8 seconds (short, so the demo is quick)');
  const merchantKey = Keypair.fromSecret(devnet.accounts[0].secret);
  const merchant = await call('POST', '/merchants', {
    name: 'Demo Coffee Club',
    wallet_address: merchantKey.publicKey(),
  });
  const plan = await call('POST', '/plans', {
    merchant_id: merchant.json.merchant.id,
    name: 'Monthly beans',
    token_amount: 100000000,
    interval_seconds: 8,
    token_contract_id: devnet.contracts.token,
  });

  step(3, 'The subscriber approves the vault as spender and creates its vault on-chain');
  const user = Keypair.fromSecret(devnet.accounts[1].secret);
  await control('/mint', { to: user.publicKey(), amount: '1000000000' });
  const { sequence } = (await (await fetch(`${devnet.controlUrl}/state`)).json()) as { sequence: number };
  const addr = (a: string) => new Address(a).toScVal();
  await invoke(user, devnet.contracts.token, 'approve', [
    addr(user.publicKey()),
    addr(devnet.contracts.vault),
    nativeToScVal(1000000000n, { type: 'i128' }),
    nativeToScVal(sequence + 10000, { type: 'u32' }),
  ]);
  await invoke(user, devnet.contracts.vault, 'create_vault', [
    addr(user.publicKey()),
    addr(merchantKey.publicKey()),
    addr(devnet.contracts.token),
    nativeToScVal(100000000n, { type: 'i128' }),
    nativeToScVal(8n, { type: 'u64' }),
  ]);

  step(4, 'Record the subscription');
  const sub = await call('POST', '/subscriptions', {
    plan_id: plan.json.plan.id,
    customer_wallet_address: user.publicKey(),
  });
  const subscriptionId = sub.json.subscription.id;

  step(5, 'Collect the first cycle');
  show(
    'balances before (subscriber / merchant)',
    `${await balance(user.publicKey())} / ${await balance(merchantKey.publicKey())}`,
  );
  const first = await call('POST', '/trigger-pull', {
    subscription_id: subscriptionId,
    merchant_secret: merchantKey.secret(),
  });
  if (first.status !== 200) throw new Error('first pull did not confirm');
  show(
    'balances after (subscriber / merchant)',
    `${await balance(user.publicKey())} / ${await balance(merchantKey.publicKey())}`,
  );
  await call('GET', `/subscriptions/${subscriptionId}`);

  step(6, 'Pull again at once: refused, the cycle is not due');
  const early = await call('POST', '/trigger-pull', {
    subscription_id: subscriptionId,
    merchant_secret: merchantKey.secret(),
  });
  if (early.status !== 500 || early.json.code !== 'too_early') throw new Error('expected too_early');

  step(7, 'Advance ledger time by 8 s, and wait until next_billing_date passes on the service clock');
  await control('/advance-time', { seconds: 8 });
  const due = new Date(
    (await call('GET', `/subscriptions/${subscriptionId}`)).json.subscription.next_billing_date,
  ).getTime();
  await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now() + 200)));

  step(8, 'Collect the second cycle');
  const second = await call('POST', '/trigger-pull', {
    subscription_id: subscriptionId,
    merchant_secret: merchantKey.secret(),
  });
  if (second.status !== 200) throw new Error('second pull did not confirm');
  show(
    'balances after (subscriber / merchant)',
    `${await balance(user.publicKey())} / ${await balance(merchantKey.publicKey())}`,
  );
  await call('GET', `/subscriptions/${subscriptionId}/pulls`);
  await automaticCollection(devnet, control, server, invoke);
  console.log(
    '\n\x1b[32mDemo complete: cycles collected on the local network, each exactly once, by hand and by the collector.\x1b[0m',
  );

  step(15, 'The hosted pages: checkout, dashboard and subscriber self-service, on the first service');
  const monthly = await call('POST', '/plans', {
    merchant_id: merchant.json.merchant.id,
    name: 'Premium monthly',
    token_amount: 25000000,
    interval_seconds: 2592000,
    token_contract_id: devnet.contracts.token,
  });
  show('checkout (use "Subscribe with the local test wallet")', `${api}/checkout/${monthly.json.plan.id}`);
  show('dashboard', `${api}/dashboard`);
  show('  API key (sign in with it)', merchant.json.api_key);
  show('  merchant secret (for "Collect now")', merchantKey.secret());
  show('subscriber self-service', `${api}/manage`);
  // Left running for a look (npm run demo -- --exit, or CI set, ends here).
  if (process.argv.includes('--exit') || process.env.CI) return;
  console.log('\n   The local network and the service keep running: open the pages above. Ctrl-C to stop.');
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
}

/**
 * Part two: the collector with dunning, on a second service whose clock follows the ledger
 * (CLOCK=ledger), so months of billing pass by moving ledger time. Three subscribers: a normal
 * cycle, a failed payment recovered on the second retry, an allowance that expires (warning
 * first, then dunning).
 */
async function automaticCollection(
  devnet: {
    rpcUrl: string;
    passphrase: string;
    controlUrl: string;
    contracts: { vault: string; token: string };
    accounts: { secret: string }[];
  },
  control: (path: string, body?: unknown) => Promise<unknown>,
  server: rpc.Server,
  invoke: (signer: Keypair, contractId: string, fn: string, args: xdr.ScVal[]) => Promise<unknown>,
) {
  step(
    9,
    'A second service: the collector on, its clock following ledger time (CLOCK=ledger), signing keys stored encrypted',
  );
  const port = 3990 + Math.floor(Math.random() * 9);
  const api = `http://127.0.0.1:${port}`;
  const admin = `demo-operator-${'x'.repeat(32)}`;
  start(
    ['src/main.ts'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: 'memory://',
      SOROBAN_RPC_URL: devnet.rpcUrl,
      STELLAR_NETWORK_PASSPHRASE: devnet.passphrase,
      CONTRACT_ID: devnet.contracts.vault,
      TX_POLL_INTERVAL_MS: '250',
      CLOCK: 'ledger',
      COLLECTOR_INTERVAL_MS: '300',
      ADMIN_API_KEY: admin,
      SIGNING_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    },
    join(root, 'service'),
  );
  await waitForHttp(`${api}/health`);
  const call = async (method: string, path: string, body?: unknown, key = admin, quiet = false) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as Record<string, any>;
    if (!quiet) console.log(`   ${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const merchantKey = Keypair.fromSecret(devnet.accounts[2]!.secret);
  const merchant = await call('POST', '/merchants', {
    name: 'Collected Coffee',
    wallet_address: merchantKey.publicKey(),
  });
  await call(
    'PUT',
    `/merchants/${merchant.merchant.id}/signing-key`,
    { secret: merchantKey.secret() },
    merchant.api_key,
  );
  const DAY = 86_400;
  const plan = await call(
    'POST',
    '/plans',
    {
      merchant_id: merchant.merchant.id,
      name: 'Beans, every 30 days',
      token_amount: 100000000,
      interval_seconds: 30 * DAY,
      token_contract_id: devnet.contracts.token,
      retry_schedule_seconds: [DAY, 2 * DAY],
      final_status: 'canceled',
    },
    merchant.api_key,
  );

  const addr = (a: string) => new Address(a).toScVal();
  const latest = async () => (await server.getLatestLedger()).sequence;
  async function subscriber(name: string, o: { balance: bigint; allowanceLedgers: number }) {
    const user = Keypair.random();
    await control('/fund', { address: user.publicKey() });
    if (o.balance > 0n) await control('/mint', { to: user.publicKey(), amount: String(o.balance) });
    await invoke(user, devnet.contracts.token, 'approve', [
      addr(user.publicKey()),
      addr(devnet.contracts.vault),
      nativeToScVal(12n * 100000000n, { type: 'i128' }),
      nativeToScVal((await latest()) + o.allowanceLedgers, { type: 'u32' }),
    ]);
    await invoke(user, devnet.contracts.vault, 'create_vault', [
      addr(user.publicKey()),
      addr(merchantKey.publicKey()),
      addr(devnet.contracts.token),
      nativeToScVal(100000000n, { type: 'i128' }),
      nativeToScVal(BigInt(30 * DAY), { type: 'u64' }),
    ]);
    const sub = await call(
      'POST',
      '/subscriptions',
      { plan_id: plan.plan.id, customer_wallet_address: user.publicKey() },
      merchant.api_key,
    );
    show(name, sub.subscription.id);
    return { name, user, id: sub.subscription.id as string };
  }
  const normal = await subscriber('A (normal)', { balance: 12n * 100000000n, allowanceLedgers: 500_000 });
  const poor = await subscriber('B (no funds yet)', { balance: 0n, allowanceLedgers: 500_000 });
  const expiring = await subscriber('C (allowance for 400 ledgers)', {
    balance: 12n * 100000000n,
    allowanceLedgers: 400,
  });

  const read = (s: { id: string }) => call('GET', `/subscriptions/${s.id}`, undefined, merchant.api_key, true);
  async function until(what: string, check: () => Promise<boolean>) {
    for (let i = 0; i < 300; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const s of [normal, poor, expiring]) show(s.name, JSON.stringify(await pulls(s)));
    throw new Error(`the collector did not get there: ${what}`);
  }
  const report = async () => {
    for (const s of [normal, poor, expiring]) {
      const sub = (await read(s)).subscription;
      show(
        s.name,
        `${sub.status}, next ${sub.next_billing_date}, health ${sub.health.status}${sub.health.detail ? ` (${sub.health.detail})` : ''}`,
      );
    }
  };
  const pulls = async (s: { id: string }) =>
    (await call('GET', `/subscriptions/${s.id}/pulls`, undefined, merchant.api_key, true)).pulls as {
      status: string;
      code: string | null;
    }[];

  step(
    10,
    'Nobody calls /trigger-pull: the collector collects A and C; B has no funds (pre-flight: nothing sent) and goes past_due',
  );
  const collected = async (s: { id: string }) => (await pulls(s)).filter((p) => p.status === 'confirmed').length;
  await until(
    'first round',
    async () => (await collected(normal)) === 1 && (await collected(expiring)) === 1 && (await pulls(poor)).length > 0,
  );
  await report();

  step(11, "One day later (ledger time): B's first retry fails too");
  await control('/advance-time', { seconds: DAY + 60 });
  await until('first retry', async () => (await pulls(poor)).length >= 2);
  show('B tries', (await pulls(poor)).map((p) => `${p.status}:${p.code}`).join(', '));

  step(12, 'B gets funds; two days after the failed retry the second retry collects: B active again');
  await control('/mint', { to: poor.user.publicKey(), amount: String(12n * 100000000n) });
  await control('/advance-time', { seconds: 2 * DAY + 60 });
  await until('second retry', async () => (await read(poor)).subscription.status === 'active');
  await report();

  step(13, "Three days before the next due date the health check warns: C's allowance will have expired by then");
  await control('/advance-time', { seconds: 24 * DAY });
  await until('warning', async () => (await read(expiring)).subscription.health.status === 'allowance_expiring');
  await report();

  step(14, "C's allowance expires (400 ledgers pass) and the due date comes: A is collected, C goes into dunning");
  await control('/advance-ledgers', { count: 400 });
  await control('/advance-time', { seconds: 4 * DAY });
  await until(
    'second cycle',
    async () =>
      (await pulls(normal)).filter((p) => p.status === 'confirmed').length === 2 &&
      (await read(expiring)).subscription.status === 'past_due',
  );
  await report();
  show('C tries', (await pulls(expiring)).map((p) => `${p.status}:${p.code ?? ''}`).join(', '));
}

main()
  .then(() => {
    for (const c of children) c.kill('SIGTERM');
  })
  .catch((err) => {
    console.error(err);
    for (const c of children) c.kill('SIGTERM');
    process.exit(1);
  });
