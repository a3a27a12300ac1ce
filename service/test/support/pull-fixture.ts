// A merchant, a plan and a subscriber with a real vault on the local network, recorded through
// the service's own API: the starting point of every /trigger-pull test.
import type { Keypair } from '@stellar/stellar-sdk';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import type { PullJson } from '../../src/schemas/pulls.ts';
import type { SubscriptionDetailJson } from '../../src/schemas/subscriptions.ts';
import type { Devnet } from './devnet.ts';
import { createMerchant, createPlan, createSubscription, get, post } from './factories.ts';
import { newFundedAccount, setUpSubscriber, type SubscriberOptions } from './subscriber.ts';

export function chainEnv(
  devnet: Devnet,
  over: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    SOROBAN_RPC_URL: devnet.rpcUrl,
    STELLAR_NETWORK_PASSPHRASE: devnet.passphrase,
    CONTRACT_ID: devnet.contracts.vault,
    TX_POLL_TIMEOUT_MS: '4000',
    TX_POLL_INTERVAL_MS: '250',
    RECONCILE_INTERVAL_MS: '0',
    // Test processes share one PostgreSQL database: a collector would take other tests' due work.
    // Tests of the collector switch it on against a database of their own.
    COLLECTOR_ENABLED: 'false',
    ...over,
  };
}

export interface PullSetup {
  merchant: Keypair;
  merchantId: string;
  user: Keypair;
  subscriptionId: string;
  amount: bigint;
  intervalSeconds: number;
}

export interface PullSetupOptions extends Partial<Omit<SubscriberOptions, 'intervalSeconds'>> {
  intervalSeconds?: number;
  merchant?: Keypair;
  merchantId?: string;
  /** The plan's token_contract_id (default: none, so DEFAULT_TOKEN_CONTRACT_ID or no token). */
  planToken?: string;
  /** More fields for POST /plans (retry_schedule_seconds, final_status, …). */
  plan?: Record<string, unknown>;
  /** Vault terms that differ from the plan's (default: the plan's). */
  vault?: { amountPerInterval?: bigint; intervalSeconds?: bigint; token?: string };
}

export async function setUpPull(t: TestApp, devnet: Devnet, o: PullSetupOptions = {}): Promise<PullSetup> {
  const amount = o.amountPerInterval ?? 10_000_000n;
  const intervalSeconds = o.intervalSeconds ?? 3600;
  const merchant = o.merchant ?? (await newFundedAccount(devnet));
  const merchantId = o.merchantId ?? (await createMerchant(t.app, { wallet_address: merchant.publicKey() })).id;
  const plan = await createPlan(t.app, merchantId, {
    token_amount: Number(amount),
    interval_seconds: intervalSeconds,
    ...(o.planToken ? { token_contract_id: o.planToken } : {}),
    ...o.plan,
  });
  const user = await setUpSubscriber(devnet, merchant.publicKey(), {
    ...o,
    amountPerInterval: o.vault?.amountPerInterval ?? amount,
    intervalSeconds: o.vault?.intervalSeconds ?? BigInt(intervalSeconds),
    token: o.vault?.token,
  });
  const sub = await createSubscription(t.app, plan.id, user.publicKey());
  return { merchant, merchantId, user, subscriptionId: sub.id, amount, intervalSeconds };
}

export const triggerPull = (t: TestApp, subscriptionId: string, secret: string) =>
  post(t.app, '/trigger-pull', { subscription_id: subscriptionId, merchant_secret: secret });

export async function subscriptionOf(t: TestApp, id: string) {
  const res = await get(t.app, `/subscriptions/${id}`);
  expect(res.status).toBe(200);
  return res.body.subscription as SubscriptionDetailJson;
}

export async function pullsOf(t: TestApp, id: string) {
  const res = await get(t.app, `/subscriptions/${id}/pulls`);
  expect(res.status).toBe(200);
  return res.body.pulls as PullJson[];
}

/** pull_funds transactions the network received from this merchant's account. */
export async function pullsOnChain(devnet: Devnet, merchant: string) {
  return (await devnet.transactions()).filter((tx) => tx.function === 'pull_funds' && tx.source === merchant);
}
