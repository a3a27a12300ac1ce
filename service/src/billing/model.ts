// The records the domain works with. Field names are the spec's field names, so nothing is
// renamed between the database, the domain and the JSON a client reads.

export type SubscriptionStatus = 'active' | 'past_due';

export interface Merchant {
  id: string;
  name: string;
  wallet_address: string;
  created_at: Date;
  /** Set by a soft delete; the row stays so plans and subscriptions keep their history. */
  deleted_at: Date | null;
}

export interface Plan {
  id: string;
  merchant_id: string;
  name: string;
  /** Exact decimal text as PostgreSQL `numeric` holds it; never a float inside the service. */
  token_amount: string;
  interval_seconds: number;
  /** The token contract (C…) the price is in; null when the plan names none. */
  token_contract_id: string | null;
  created_at: Date;
}

export interface PlanWithMerchant extends Plan {
  merchant: Pick<Merchant, 'id' | 'name' | 'wallet_address'>;
}

export interface Subscription {
  id: string;
  plan_id: string;
  customer_wallet_address: string;
  status: SubscriptionStatus;
  next_billing_date: Date;
  created_at: Date;
  updated_at: Date;
}
