// Rows made through the API itself, each with fresh values, so suites never collide on the shared
// PostgreSQL server and never need to truncate anything.
import { Keypair } from '@stellar/stellar-sdk';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { MerchantJson } from '../../src/schemas/merchants.ts';
import type { PlanJson } from '../../src/schemas/plans.ts';
import type { SubscriptionJson } from '../../src/schemas/subscriptions.ts';

export const newWallet = () => Keypair.random().publicKey();
export const newSecret = () => Keypair.random().secret();
/** A well-formed UUID that no row has. */
export const unknownId = () => crypto.randomUUID();

export async function post(app: FastifyInstance, url: string, payload: unknown) {
  const res = await app.inject({ method: 'POST', url, payload: payload as object });
  return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
}

export async function get(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

export async function del(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'DELETE', url });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

async function created<T>(app: FastifyInstance, url: string, payload: unknown, key: string): Promise<T> {
  const res = await post(app, url, payload);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body[key] as T;
}

export const createMerchant = (app: FastifyInstance, over: Partial<{ name: string; wallet_address: string }> = {}) =>
  created<MerchantJson>(app, '/merchants', { name: 'Acme Ltd', wallet_address: newWallet(), ...over }, 'merchant');

export const planPayload = (merchantId: string, over: Record<string, unknown> = {}) => ({
  merchant_id: merchantId,
  name: 'Gold monthly',
  token_amount: 100_000_000,
  interval_seconds: 2_592_000,
  ...over,
});

export const createPlan = (app: FastifyInstance, merchantId: string, over: Record<string, unknown> = {}) =>
  created<PlanJson>(app, '/plans', planPayload(merchantId, over), 'plan');

export const createSubscription = (app: FastifyInstance, planId: string, wallet = newWallet()) =>
  created<SubscriptionJson>(
    app,
    '/subscriptions',
    { plan_id: planId, customer_wallet_address: wallet },
    'subscription',
  );
