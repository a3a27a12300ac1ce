// Keys recently found valid, so that a request with a key costs no database round trip and no
// hash (GET /plans/{id} with a key runs as fast as without). Entries are found by the key itself:
// hashing it on every request cost more than the rest of authentication together, and the key is
// in the request's own memory anyway; the cache holds only keys that were valid a moment ago, for
// at most TTL_MS. Only positive answers are kept: an unknown key always goes to the database (by
// its hash), so guessing cannot fill the cache.
//
// The window we accept: a key revoked (or whose merchant is deleted) on another replica keeps
// working here for at most TTL_MS. On this replica revocation and deletion forget it at once.
import type { ActiveKey } from './api-keys-port.ts';

export const KEY_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

export interface KeyCache {
  get(key: string): ActiveKey | undefined;
  set(key: string, found: ActiveKey): void;
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
    get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.until > now()) return e.key;
      entries.delete(key);
      return undefined;
    },
    set(key, found) {
      // Oldest first out: Map keeps insertion order.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(key, { key: found, until: now() + KEY_CACHE_TTL_MS });
    },
    // Rare operations: a scan of at most MAX_ENTRIES is fine.
    forgetKey: (keyId) => forgetWhere((k) => k.id === keyId),
    forgetMerchant: (merchantId) => forgetWhere((k) => k.merchant_id === merchantId),
  };
}
