// What subscription verbs need from storage (storage/repos/subscriptions-repo.ts implements it).
import type { NewEvent } from '../events/events-port.ts';
import type { Subscription, SubscriptionListItem, SubscriptionStatus } from '../model.ts';
import type { Page, PageRequest } from '../paging.ts';

/** With due_before the order is (next_billing_date, id), otherwise (created_at, id). */
export interface SubscriptionFilter {
  /** The merchant's subscriptions, none at all while the merchant is soft-deleted. */
  merchant_id?: string;
  plan_id?: string;
  status?: SubscriptionStatus;
  due_before?: Date;
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
