// Turns the key a request carries into its actor. A merchant key found valid a moment ago comes
// from the cache (key-cache.ts); otherwise the operator key is compared by hash in constant time,
// and a merchant key is looked up by its hash (the table holds nothing else). Every use is noted
// for last_used_at, never written here.
import { timingSafeEqual } from 'node:crypto';
import { OPERATOR, type Actor } from '../context.ts';
import type { Clock } from '../clock.ts';
import type { ApiKeysRepo } from './api-keys-port.ts';
import { apiKeyInvalid } from './authorize.ts';
import type { KeyCache } from './key-cache.ts';
import { hashKey } from './key-material.ts';
import type { KeyUsage } from './key-usage.ts';

export interface AuthenticateDeps {
  apiKeys: Pick<ApiKeysRepo, 'findActiveByHash'>;
  cache: KeyCache;
  usage: Pick<KeyUsage, 'touch'>;
  clock: Clock;
  /** ADMIN_API_KEY; undefined = no operator key configured. */
  operatorKey: string | undefined;
}

export function makeAuthenticate(deps: AuthenticateDeps) {
  const operatorHash = deps.operatorKey === undefined ? undefined : hashKey(deps.operatorKey);
  return async function authenticate({ key }: { key: string }): Promise<Actor> {
    let found = deps.cache.get(key);
    if (!found) {
      const hash = hashKey(key);
      if (operatorHash && timingSafeEqual(hash, operatorHash)) return OPERATOR;
      found = (await deps.apiKeys.findActiveByHash(hash.toString('hex'))) ?? undefined;
      if (!found) throw apiKeyInvalid();
      deps.cache.set(key, found);
    }
    deps.usage.touch(found.id, deps.clock.now());
    return { kind: 'merchant', merchantId: found.merchant_id, keyId: found.id };
  };
}
