// Credentials for tests: the operator key, key-encryption keys, and requests that carry a key.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { MerchantJson } from '../../src/schemas/merchants.ts';
import { newWallet } from './factories.ts';

export const ADMIN_KEY = `admin-${'k'.repeat(40)}`;
/** base64 of 32 bytes: one key-encryption key, id "default". */
export const KEK = randomBytes(32).toString('base64');
/** The environment of an app with an operator key and signing-key storage. */
export const accountsEnv = (over: Record<string, string> = {}) => ({
  ADMIN_API_KEY: ADMIN_KEY,
  SIGNING_KEY_ENCRYPTION_KEY: KEK,
  ...over,
});

/** A key of the right shape that no merchant has. */
export const unknownKey = () => `bk_${randomBytes(32).toString('base64url')}`;

export interface Reply {
  status: number;
  body: Record<string, any>;
  headers: Record<string, unknown>;
}

/** Requests as the holder of `key` (none: anonymous). */
export function as(app: FastifyInstance, key?: string) {
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> => {
    const res = await app.inject({
      method,
      url,
      payload: payload as object,
      headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...headers },
    });
    const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
    return {
      status: res.statusCode,
      body: isJson ? (res.json() as Record<string, any>) : { text: res.body },
      headers: res.headers,
    };
  };
  return {
    send,
    get: (url: string) => send('GET', url),
    post: (url: string, payload: unknown = {}) => send('POST', url, payload),
    put: (url: string, payload: unknown) => send('PUT', url, payload),
    del: (url: string) => send('DELETE', url),
  };
}

/** A merchant made by the operator, with its first key. */
export async function merchantWithKey(
  app: FastifyInstance,
  wallet = newWallet(),
): Promise<{ merchant: MerchantJson; key: string }> {
  const res = await as(app, ADMIN_KEY).post('/merchants', { name: 'Keyed Ltd', wallet_address: wallet });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { merchant: res.body.merchant, key: res.body.api_key };
}
