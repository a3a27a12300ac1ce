// Client-side signing (product.md): a prepared pull waits for the merchant's signature of its
// authorisation. While `prepared` and not past expires_at it is the subscription's attempt in flight.
export interface PreparedPull {
  id: string;
  subscription_id: string;
  merchant_id: string;
  status: 'prepared' | 'submitted' | 'expired';
  auth_entry_xdr: string;
  preimage_xdr: string;
  hash: string;
  signature_expiration_ledger: number;
  expires_at: Date;
  pull_id: string | null;
  created_at: Date;
}

export interface PreparedPullsRepo {
  /** undefined when the subscription already has an open prepared pull (unique index). */
  insert(
    p: Omit<PreparedPull, 'id' | 'status' | 'pull_id' | 'created_at'> & { now: Date },
  ): Promise<PreparedPull | undefined>;
  find(id: string): Promise<PreparedPull | undefined>;
  findOpen(subscriptionId: string): Promise<PreparedPull | undefined>;
  /** prepared → submitted / expired; undefined when it was no longer `prepared`. */
  close(id: string, status: 'submitted' | 'expired', at: Date): Promise<PreparedPull | undefined>;
  linkPull(id: string, pullId: string): Promise<void>;
}
