// The records the domain works with. Field names are the spec's field names, so nothing is
// renamed between the database, the domain and the JSON a client reads.

export type { SubscriptionStatus, FinalStatus } from './subscriptions/status-machine.ts';
import type { FinalStatus, SubscriptionStatus } from './subscriptions/status-machine.ts';

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
  /** Dunning: retry k comes this many seconds after failed try k (product.md). */
  retry_schedule_seconds: number[];
  /** The status after the last try of a cycle fails. */
  final_status: FinalStatus;
  /** Archived: no new subscriptions; existing ones go on. */
  archived_at: Date | null;
  created_at: Date;
}

export interface PlanWithMerchant extends Plan {
  merchant: Pick<Merchant, 'id' | 'name' | 'wallet_address'>;
}

export interface Subscription {
  id: string;
  plan_id: string;
  /** The plan's owner, copied onto the row (migration 0003); internal, for scoping, never answered. */
  merchant_id: string;
  customer_wallet_address: string;
  status: SubscriptionStatus;
  next_billing_date: Date;
  /** Cancel at period end: canceled at this instant (the next billing date when asked). */
  cancel_at: Date | null;
  canceled_at: Date | null;
  /** The status held when paused, restored by resume. */
  paused_from: Exclude<SubscriptionStatus, 'paused' | 'canceled'> | null;
  /** The latest early-warning check (billing/collection/check-health.ts). */
  health_status: HealthStatus;
  health_checked_at: Date | null;
  health_detail: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What a listing shows of each subscription (the spec's five fields): read without the rest. */
export type SubscriptionListItem = Pick<
  Subscription,
  'id' | 'plan_id' | 'customer_wallet_address' | 'status' | 'next_billing_date'
>;

export const HEALTH_STATUSES = [
  'ok',
  'allowance_expiring',
  'allowance_insufficient',
  'allowance_revoked',
  'balance_low',
  'vault_missing',
  'vault_terms_mismatch',
  'unknown',
] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** A merchant API key as stored: never the key itself, only its SHA-256 (in storage) and prefix. */
export interface ApiKey {
  id: string;
  merchant_id: string;
  /** The key's first characters, enough to tell keys apart in a list. */
  prefix: string;
  label: string | null;
  created_at: Date;
  /** Coalesced: may lag real use by up to a minute (billing/access/key-usage.ts). */
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** A merchant's stored signing key, as the API may show it: never the secret. */
export interface StoredSigningKey {
  merchant_id: string;
  public_key: string;
  created_at: Date;
}
