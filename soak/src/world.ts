// The soak's world: merchants and subscribers on the local network (real transactions through
// the SDK: fund, mint, approve, create_vault), recorded through the service's HTTP API (via the
// front proxy), and what the subscribers do to themselves under the fault schedule (revoke the
// allowance, empty the balance).
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
import type { Devnet } from './processes.ts';
import type { Rng } from './rng.ts';

export const ADMIN_KEY = `soak-admin-${'k'.repeat(32)}`;

export interface MerchantRec {
  id: string;
  key: Keypair;
  apiKey: string;
  autocollect: boolean;
}

export interface SubRec {
  id: string;
  merchant: MerchantRec;
  user: Keypair;
  amount: bigint;
  intervalSeconds: number;
  /** Set when a fault made the subscriber unable to pay (allowance revoked, balance emptied). */
  impaired?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  key = ADMIN_KEY,
  timeoutMs = 30_000,
): Promise<{ status: number; body: Record<string, any>; proxy?: string }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: Record<string, any> = {};
  try {
    json = JSON.parse(text);
  } catch {
    json = { text };
  }
  return { status: res.status, body: json, proxy: res.headers.get('x-soak-proxy') ?? undefined };
}

/** A setup call must succeed: retried through replica restarts (none happen during setup). */
async function must(
  base: string,
  method: string,
  path: string,
  body: unknown,
  key: string,
  want: number,
): Promise<Record<string, any>> {
  for (let i = 0; ; i++) {
    const r = await api(base, method, path, body, key).catch((e): { status: number; body: Record<string, any> } => ({
      status: 0,
      body: { error: String(e) },
    }));
    if (r.status === want) return r.body;
    if (i >= 5) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    await sleep(500);
  }
}

export class Chain {
  readonly server: rpc.Server;
  readonly devnet: Devnet;
  constructor(devnet: Devnet) {
    this.devnet = devnet;
    this.server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  }

  /** Build, simulate, sign, send and wait; throws unless SUCCESS. */
  async invoke(signer: Keypair, contractId: string, fn: string, args: xdr.ScVal[]): Promise<void> {
    const [account, latest] = await Promise.all([
      this.server.getAccount(signer.publicKey()),
      this.server._getLatestLedger(),
    ]);
    const tx = new TransactionBuilder(account, { fee: '100', networkPassphrase: this.devnet.passphrase })
      .addOperation(new Contract(contractId).call(fn, ...args))
      .setTimebounds(0, Number(latest.closeTime) + 60)
      .build();
    const prepared = await this.server.prepareTransaction(tx);
    prepared.sign(signer);
    const sent = await this.server.sendTransaction(prepared);
    if (sent.status !== 'PENDING') throw new Error(`${fn}: sendTransaction ${sent.status}`);
    for (let i = 0; i < 240; i++) {
      const r = await this.server.getTransaction(sent.hash);
      if (r.status === 'SUCCESS') return;
      if (r.status === 'FAILED') throw new Error(`${fn}: FAILED`);
      await sleep(250);
    }
    throw new Error(`${fn}: not included`);
  }

  async balance(owner: string): Promise<bigint> {
    const source = await this.server.getAccount(this.devnet.accounts[0]!.publicKey);
    const tx = new TransactionBuilder(source, { fee: '100', networkPassphrase: this.devnet.passphrase })
      .addOperation(new Contract(this.devnet.contracts.token).call('balance', new Address(owner).toScVal()))
      .setTimeout(30)
      .build();
    const sim = await this.server.simulateTransaction(tx);
    if (!rpc.Api.isSimulationSuccess(sim) || !sim.result) throw new Error('balance simulation failed');
    return BigInt(scValToNative(sim.result.retval) as bigint);
  }

  async approve(user: Keypair, amount: bigint, ledgers: number): Promise<void> {
    const { sequence } = await this.devnet.control<{ sequence: number }>('/state');
    await this.invoke(user, this.devnet.contracts.token, 'approve', [
      new Address(user.publicKey()).toScVal(),
      new Address(this.devnet.contracts.vault).toScVal(),
      nativeToScVal(amount, { type: 'i128' }),
      nativeToScVal(sequence + ledgers, { type: 'u32' }),
    ]);
  }
}

export interface WorldOptions {
  merchants: number;
  subscriptions: number;
  intervalRange: [number, number];
  /** Seconds of collection the subscribers' balance and allowance must cover. */
  horizonSeconds: number;
}

export async function buildWorld(front: string, chain: Chain, rng: Rng, o: WorldOptions) {
  const { devnet } = chain;
  const merchants: MerchantRec[] = [];
  await Promise.all(
    Array.from({ length: o.merchants }, async (_, i) => {
      const key = Keypair.random();
      await devnet.control('/fund', { address: key.publicKey() });
      const m = await must(
        front,
        'POST',
        '/merchants',
        { name: `Soak merchant ${i}`, wallet_address: key.publicKey() },
        ADMIN_KEY,
        201,
      );
      // Every other merchant stores its signing key: the collector works for it as well as the drivers.
      const autocollect = i % 2 === 0;
      if (autocollect)
        await must(front, 'PUT', `/merchants/${m.merchant.id}/signing-key`, { secret: key.secret() }, ADMIN_KEY, 200);
      merchants[i] = { id: m.merchant.id, key, apiKey: m.api_key, autocollect };
    }),
  );
  // One plan per (merchant, interval, amount) drawn per subscription: plans are cheap.
  const plans = new Map<string, string>();
  const subs: SubRec[] = [];
  const specs = Array.from({ length: o.subscriptions }, (_, i) => ({
    merchant: merchants[i % merchants.length]!,
    interval: rng.int(o.intervalRange[0], o.intervalRange[1]),
    amount: BigInt(rng.int(1, 100) * 1000),
  }));
  const queue = [...specs.entries()];
  await Promise.all(
    Array.from({ length: Math.min(100, o.subscriptions) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [i, s] = next;
        const planKey = `${s.merchant.id}/${s.interval}/${s.amount}`;
        let planId = plans.get(planKey);
        if (!planId) {
          const p = await must(
            front,
            'POST',
            '/plans',
            {
              merchant_id: s.merchant.id,
              name: `every ${s.interval}s`,
              token_amount: Number(s.amount),
              interval_seconds: s.interval,
              token_contract_id: devnet.contracts.token,
              retry_schedule_seconds: [5, 15, 30],
              final_status: 'past_due',
            },
            s.merchant.apiKey,
            201,
          );
          planId = p.plan.id as string;
          plans.set(planKey, planId);
        }
        const user = Keypair.random();
        const cycles = BigInt(Math.ceil(o.horizonSeconds / s.interval) + 20);
        await devnet.control('/fund', { address: user.publicKey() });
        await devnet.control('/mint', { to: user.publicKey(), amount: String(s.amount * cycles) });
        await chain.approve(user, s.amount * cycles, 1_000_000);
        await chain.invoke(user, devnet.contracts.vault, 'create_vault', [
          new Address(user.publicKey()).toScVal(),
          new Address(s.merchant.key.publicKey()).toScVal(),
          new Address(devnet.contracts.token).toScVal(),
          nativeToScVal(s.amount, { type: 'i128' }),
          nativeToScVal(BigInt(s.interval), { type: 'u64' }),
        ]);
        const sub = await must(
          front,
          'POST',
          '/subscriptions',
          { plan_id: planId, customer_wallet_address: user.publicKey() },
          s.merchant.apiKey,
          201,
        );
        subs[i] = {
          id: sub.subscription.id,
          merchant: s.merchant,
          user,
          amount: s.amount,
          intervalSeconds: s.interval,
        };
      }
    }),
  );
  return { merchants, subs };
}

/** The network's own faults hit the subscriber's transactions too: a few tries. */
async function retried(what: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await what();
    } catch (err) {
      if (i >= 5) throw err;
      await sleep(1000);
    }
  }
}

/** The subscriber withdraws the vault's allowance (approve 0). */
export function revoke(chain: Chain, sub: SubRec): Promise<void> {
  return retried(() => chain.approve(sub.user, 0n, 1000));
}

/** The subscriber moves its whole balance away. */
export function empty(chain: Chain, sub: SubRec): Promise<void> {
  return retried(async () => {
    const balance = await chain.balance(sub.user.publicKey());
    if (balance <= 0n) return;
    await chain.invoke(sub.user, chain.devnet.contracts.token, 'transfer', [
      new Address(sub.user.publicKey()).toScVal(),
      new Address(chain.devnet.accounts[0]!.publicKey).toScVal(),
      nativeToScVal(balance, { type: 'i128' }),
    ]);
  });
}
