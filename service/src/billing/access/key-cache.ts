// Keys recently found valid, by hash, so that a request with a key costs no database round trip
// (GET /plans/{id} with a key runs as fast as without). Only positive answers are kept: an unknown
// key always reaches the database, so guessing cannot fill the cache.
//
// The window we accept: a key revoked (or whose merchant is deleted) on another replica keeps
// working here for at most TTL_MS. On this replica revocation and deletion forget it at once.
import type { ActiveKey } from './api-keys-port.ts';

export const KEY_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

export interface KeyCache {
  get(keyHash: string): ActiveKey | undefined;
  set(keyHash: string, key: ActiveKey): void;
  forgetKey(keyId: string): void;
  forgetMerchant(merchantId: string): void;
}

/** `now` is monotonic wall time in ms (not the billing clock, which tests freeze). */
export function createKeyCache(now: () => number = () => performance.now()): KeyCache {
  const entries = new Map<string, { key: ActiveKey; until: number }>();
  const forgetWhere = (match: (k: ActiveKey) => boolean) => {
    for (const [hash, e] of entries) if (match(e.key)) entries.delete(hash);
  };
  return {
    get(keyHash) {
      const e = entries.get(keyHash);
      if (!e) return undefined;
      if (e.until > now()) return e.key;
      entries.delete(keyHash);
      return undefined;
    },
    set(keyHash, key) {
      // Oldest first out: Map keeps insertion order.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(keyHash, { key, until: now() + KEY_CACHE_TTL_MS });
    },
    // Rare operations: a scan of at most MAX_ENTRIES is fine.
    forgetKey: (keyId) => forgetWhere((k) => k.id === keyId),
    forgetMerchant: (merchantId) => forgetWhere((k) => k.merchant_id === merchantId),
  };
}
