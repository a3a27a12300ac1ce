// What plan verbs need from storage (storage/repos/plans-repo.ts implements it).
import type { Plan, PlanWithMerchant } from '../model.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { FinalStatus } from '../subscriptions/status-machine.ts';

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
