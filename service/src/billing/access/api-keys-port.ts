// What the key verbs need from storage (storage/repos/api-keys-repo.ts implements it).
import type { ApiKey } from '../model.ts';

export interface NewApiKey {
  merchant_id: string;
  /** Hex SHA-256 of the key (key-material.ts). */
  key_hash: string;
  prefix: string;
  label: string | null;
}

/** What authentication needs to know about a live key. */
export interface ActiveKey {
  id: string;
  merchant_id: string;
}

export interface ApiKeysRepo {
  insert(input: NewApiKey): Promise<ApiKey>;
  /** A key that is not revoked and whose merchant is not deleted; null otherwise. */
  findActiveByHash(keyHash: string): Promise<ActiveKey | null>;
  /** The merchant's keys that are not revoked, oldest first. */
  listActive(merchantId: string): Promise<ApiKey[]>;
  /** Revokes a live key of this merchant; null when there is none (unknown, another merchant's, already revoked). */
  revoke(merchantId: string, keyId: string): Promise<ApiKey | null>;
  /** Coalesced last-use times, one statement for many keys; never moves a time backwards. */
  recordUse(uses: { id: string; at: Date }[]): Promise<void>;
}
