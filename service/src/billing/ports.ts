// What the domain needs from the outside, as interfaces. storage/ implements the repositories,
// deps.ts wires them; verbs take only the slice they use (Pick<...>) so stand-ins stay small.
import type { Merchant, Plan, PlanWithMerchant, Subscription } from './model.ts';
import type { PullsRepo } from './pulls/pulls-port.ts';

/** The service's notion of "now". Injected so tests can pin or move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

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
}

export interface NewPlan {
  merchant_id: string;
  name: string;
  /** Decimal text, kept exact all the way into `numeric`. */
  token_amount: string;
  interval_seconds: number;
}

export interface PlansRepo {
  insert(input: NewPlan): Promise<Plan>;
  findById(id: string): Promise<Plan | null>;
  /** The plan with its owner, only while the owner is not soft-deleted. */
  findOffered(id: string): Promise<PlanWithMerchant | null>;
}

export interface NewSubscription {
  plan_id: string;
  customer_wallet_address: string;
  next_billing_date: Date;
}

export interface SubscriptionsRepo {
  insert(input: NewSubscription): Promise<Subscription>;
  findById(id: string): Promise<Subscription | null>;
}

export interface Repos {
  merchants: MerchantsRepo;
  plans: PlansRepo;
  subscriptions: SubscriptionsRepo;
  pulls: PullsRepo;
}

/** Runs fn with repositories bound to one transaction: all of fn's writes commit or none do. */
export interface UnitOfWork {
  run<T>(fn: (repos: Repos) => Promise<T>): Promise<T>;
}
