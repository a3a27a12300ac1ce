// Seed data through the service's own HTTP API (so the figures read rows the service wrote),
// and wallets for POST /subscriptions: each request needs a fresh (plan, wallet) pair because
// the pair is unique, so the bench makes real account ids up front with Keypair.random().
import { Keypair } from '@stellar/stellar-sdk';

export function makeWallets(n: number): string[] {
  return Array.from({ length: n }, () => Keypair.random().publicKey());
}

export async function post<T>(base: string, path: string, body: unknown, expect = 201): Promise<T> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expect)
    throw new Error(`POST ${path} → ${res.status} (expected ${expect}): ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Runs fn over items with at most `limit` in flight, keeping the results in order. */
export async function pmap<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function planBody(merchantId: string, i: number): Record<string, unknown> {
  return { merchant_id: merchantId, name: `Bench plan ${i}`, token_amount: 10_000_000, interval_seconds: 2_592_000 };
}

/** The merchant's id and its first API key (POST /merchants answers both). */
export async function createMerchant(base: string, wallet: string): Promise<{ id: string; apiKey: string }> {
  const r = await post<{ merchant: { id: string }; api_key: string }>(base, '/merchants', {
    name: 'Bench merchant',
    wallet_address: wallet,
  });
  return { id: r.merchant.id, apiKey: r.api_key };
}

export async function createPlans(base: string, merchantId: string, n: number): Promise<string[]> {
  const idx = Array.from({ length: n }, (_, i) => i);
  return pmap(
    idx,
    16,
    async (i) => (await post<{ plan: { id: string } }>(base, '/plans', planBody(merchantId, i))).plan.id,
  );
}

export interface Seeded {
  merchantId: string;
  /** The merchant's API key, for the keyed figures; undefined on the stand-in schema. */
  apiKey?: string;
  planIds: string[];
  subscriptionIds: string[];
}

/** One merchant, `n` plans and one subscription per plan (so the merchant's listing has n rows). */
export async function seed(base: string, n: number, wallets: string[]): Promise<Seeded> {
  const { id: merchantId, apiKey } = await createMerchant(base, Keypair.random().publicKey());
  const planIds = await createPlans(base, merchantId, n);
  const subscriptionIds = await pmap(planIds, 16, async (planId, i) => {
    const body = { plan_id: planId, customer_wallet_address: wallets[i % wallets.length] };
    return (await post<{ subscription: { id: string } }>(base, '/subscriptions', body)).subscription.id;
  });
  return { merchantId, apiKey, planIds, subscriptionIds };
}
