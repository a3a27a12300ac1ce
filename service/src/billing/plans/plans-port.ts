// What plan verbs need from storage (storage/repos/plans-repo.ts implements it).
import type { NewEvent } from '../events/events-port.ts';
import type { Plan, PlanWithMerchant } from '../model.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { FinalStatus } from '../subscriptions/status-machine.ts';

export interface NewPlan {
  /** Chosen by the caller, so that the plan.created event can be written in the same statement. */
  id?: string;
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
   * not exist fails on the foreign key (the spec passes that message through). With an event, the
   * same statement writes it (its object's created_at taken from the inserted row) and its deliveries.
   */
  insert(input: NewPlan, event?: Omit<NewEvent, 'merchant_id'>): Promise<Plan | null>;
  findById(id: string): Promise<Plan | null>;
  /** The plan with its owner, only while the owner is not soft-deleted. */
  findOffered(id: string): Promise<PlanWithMerchant | null>;
  /** Sets archived_at if not set; null when it already was. */
  archive(id: string, at: Date): Promise<Plan | null>;
  /** The merchant's plans, oldest first. */
  listByMerchant(merchantId: string, page: PageRequest): Promise<Page<Plan>>;
}
