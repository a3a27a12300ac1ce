// API keys as secrets: 256 random bits, shown once, stored only as their SHA-256. A fast hash is
// enough (unlike passwords, the input has full entropy, so there is nothing to brute-force) and it
// lets the database find a key by an indexed equality on the hash.
import { hash, randomBytes } from 'node:crypto';

/** Recognisable in code and logs (the logger masks anything shaped like a key). */
export const KEY_PREFIX = 'bk_';
export const API_KEY_PATTERN = /bk_[A-Za-z0-9_-]{43}/g;
const SHOWN = KEY_PREFIX.length + 8;

export interface IssuedKey {
  /** The key itself: returned to the caller once, never stored. */
  secret: string;
  /** Hex SHA-256 of the key: what the database holds. */
  hash: string;
  prefix: string;
}

// One-shot hash: about half the cost of createHash().update().digest() on the per-request path.
export const hashKey = (key: string): Buffer => hash('sha256', key, 'buffer');

export function newKeyMaterial(): IssuedKey {
  const secret = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { secret, hash: hashKey(secret).toString('hex'), prefix: secret.slice(0, SHOWN) };
}
