// What the domain needs from the outside, as interfaces. storage/ implements the repositories,
// deps.ts wires them; verbs take only the slice they use (Pick<...>) so stand-ins stay small.
import type {
  Merchant,
  Plan,
  PlanWithMerchant,
  Subscription,
  SubscriptionListItem,
  SubscriptionStatus,
} from './model.ts';
import type { ApiKeysRepo } from './access/api-keys-port.ts';
import type { CollectionRepo } from './collection/collection-port.ts';
import type { PullsRepo } from './pulls/pulls-port.ts';
import type { MerchantPullsRepo } from './pulls/merchant-pulls-port.ts';
import type { WalletSubscriptionsRepo } from './subscribers/wallet-subscriptions-port.ts';
import type { FinalStatus } from './subscriptions/status-machine.ts';
import type { ChannelsRepo } from './pulls/channels-port.ts';
import type { PreparedPullsRepo } from './pulls/prepared-pulls-port.ts';
import type { SigningKeysRepo } from './signing-keys/signing-keys-port.ts';
import type { EventsRepo, NewEvent } from './events/events-port.ts';
import type { IdempotencyRepo } from './idempotency/idempotency-port.ts';
import type { WebhooksRepo } from './webhooks/webhooks-port.ts';
import type { Page, PageRequest } from './paging.ts';

/** The service's notion of "now". Injected so tests can pin or move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

// Pagination lives in paging.ts (the per-concern ports import it from there, not from here).
export type { Page, PageKey, PageRequest } from './paging.ts';

/** With due_before the order is (next_billing_date, id), otherwise (created_at, id). */
export interface SubscriptionFilter {
  /** The merchant's subscriptions, none at all while the merchant is soft-deleted. */
  merchant_id?: string;
  plan_id?: string;
  status?: SubscriptionStatus;
  due_before?: Date;
}

export interface NewMerchant {
  name: string;
  wallet_address: string;
}

export interface MerchantsRepo {
  insert(input: NewMerchant): Promise<Merchant>;
  /** Returns soft-deleted merchants too (deleted_at set); callers decide what deleted means. */
  findById(id: string): Promise<Merchant | null>;
  /** Marks a live merchant deleted; null when absent or already deleted. */
  softDelete(id: string): Promise<Merchant | null>;
  /** Live merchants, oldest first. */
  list(page: PageRequest): Promise<Page<Merchant>>;
}

export interface NewPlan {
  merchant_id: string;
  name: string;
  /** Decimal text, kept exact all the way into `numeric`. */
  token_amount: string;
  interval_seconds: number;
  token_contract_id: string | null;
  retry_schedule_seconds: number[];
  final_status: FinalStatus;
}

export interface PlansRepo {
  /**
   * One statement: null when the merchant exists but is soft-deleted; a merchant_id that does
   * not exist fails on the foreign key (the spec passes that message through).
   */
  insert(input: NewPlan): Promise<Plan | null>;
  findById(id: string): Promise<Plan | null>;
  /** The plan with its owner, only while the owner is not soft-deleted. */
  findOffered(id: string): Promise<PlanWithMerchant | null>;
  /** Sets archived_at if not set; null when it already was. */
  archive(id: string, at: Date): Promise<Plan | null>;
  /** The merchant's plans, oldest first. */
  listByMerchant(merchantId: string, page: PageRequest): Promise<Page<Plan>>;
}

export interface NewSubscription {
  /** Chosen by the caller, so that the subscription.created event can be written in the same statement. */
  id: string;
  plan_id: string;
  customer_wallet_address: string;
  next_billing_date: Date;
  /** When set, the plan must belong to this merchant (a merchant key's scope), else null. */
  only_merchant_id?: string;
}

export interface SubscriptionsRepo {
  /**
   * One statement: null when the plan is not offered (absent, its merchant soft-deleted, or outside
   * only_merchant_id). `event` (its merchant_id is taken from the row) is written by the same
   * statement, fanned out to endpoints too: the outbox without a transaction's extra round trips.
   */
  insert(input: NewSubscription, event?: Omit<NewEvent, 'merchant_id'>): Promise<Subscription | null>;
  findById(id: string): Promise<Subscription | null>;
  /** Only the listed fields: a page of 50 full rows costs seven timestamp conversions a row. */
  list(filter: SubscriptionFilter, page: PageRequest): Promise<Page<SubscriptionListItem>>;
  /**
   * Moves the subscription to `patch.status` (and the other fields given) only if its status is
   * still `from`; null when it was not. Leaving dunning (canceled, paused) clears its state.
   */
  setState(id: string, from: SubscriptionStatus, patch: StatePatch, at: Date): Promise<Subscription | null>;
}

export interface StatePatch {
  status: SubscriptionStatus;
  cancel_at?: Date | null;
  canceled_at?: Date | null;
  paused_from?: Subscription['paused_from'];
}

export interface Repos {
  merchants: MerchantsRepo;
  plans: PlansRepo;
  subscriptions: SubscriptionsRepo;
  pulls: PullsRepo;
  /** A merchant's pulls across its subscriptions, and its daily totals. */
  merchantPulls: MerchantPullsRepo;
  /** A subscriber's subscriptions across merchants (/manage). */
  walletSubscriptions: WalletSubscriptionsRepo;
  apiKeys: ApiKeysRepo;
  signingKeys: SigningKeysRepo;
  collection: CollectionRepo;
  /** Channel accounts and their leases (issue 14). */
  channels: ChannelsRepo;
  /** Client-side signing's prepared pulls. */
  preparedPulls: PreparedPullsRepo;
  /** The outbox: written only through billing/events/emit-event.ts. */
  events: EventsRepo;
  webhooks: WebhooksRepo;
  idempotency: IdempotencyRepo;
}

/** Runs fn with repositories bound to one transaction: all of fn's writes commit or none do. */
export interface UnitOfWork {
  run<T>(fn: (repos: Repos) => Promise<T>): Promise<T>;
}
