// Stored first answers for Idempotency-Key (storage/repos/idempotency-repo.ts).

export interface StoredRequest {
  request_hmac: string;
  /** null while the first request is still running. */
  status: number | null;
  body: string | null;
  created_at: Date;
}

export interface IdempotencyRepo {
  /**
   * Takes the key for a new request: true when this request now owns it. A row older than
   * `expireMs` (24 h) counts as absent, and so does one whose request has been running longer than
   * `abandonMs` (its process died: nothing will ever finish it).
   */
  claim(scope: string, key: string, requestHmac: string, expireMs: number, abandonMs: number): Promise<boolean>;
  find(scope: string, key: string): Promise<StoredRequest | null>;
  /** The first answer, kept for replays. */
  complete(scope: string, key: string, status: number, body: string): Promise<void>;
  /** Gives the key back (the answer could not be stored): a retry runs again. */
  release(scope: string, key: string): Promise<void>;
  /** Deletes rows older than expireMs; returns how many. */
  purge(expireMs: number): Promise<number>;
  /** The database's own HMAC key, for when CURSOR_SECRET is unset. */
  salt(): Promise<string>;
}
