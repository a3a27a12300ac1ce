// last_used_at without a database write per request: uses are noted in memory and written in one
// statement per flush (every KEY_USAGE_FLUSH_MS, and when the process closes). The stored time may
// therefore lag real use by up to a flush interval, as product.md allows ("up to a minute"); a
// crash loses at most the last interval's notes, never a key.
import type { ApiKeysRepo } from './api-keys-port.ts';

export const KEY_USAGE_FLUSH_MS = 30_000;

export interface KeyUsage {
  touch(keyId: string, at: Date): void;
  /** Writes the noted uses; they are kept for the next flush if the write fails. */
  flush(): Promise<void>;
}

export function createKeyUsage(deps: { apiKeys: Pick<ApiKeysRepo, 'recordUse'> }): KeyUsage {
  let noted = new Map<string, Date>();
  const note = (keyId: string, at: Date) => {
    const known = noted.get(keyId);
    if (!known || known < at) noted.set(keyId, at);
  };
  return {
    touch: note,
    async flush() {
      if (noted.size === 0) return;
      const batch = noted;
      noted = new Map();
      try {
        await deps.apiKeys.recordUse([...batch].map(([id, at]) => ({ id, at })));
      } catch (err) {
        for (const [id, at] of batch) note(id, at);
        throw err;
      }
    },
  };
}
