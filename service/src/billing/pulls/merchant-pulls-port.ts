// What the merchant-wide pull listing and its daily totals need from storage
// (storage/repos/merchant-pulls-repo.ts). Every pull row carries its merchant (migration 0002),
// so neither reads a subscription or a plan.
import type { Page, PageRequest } from '../paging.ts';
import type { PullRecord, PullStatus } from './pulls-port.ts';

export interface MerchantPullsFilter {
  merchant_id: string;
  /** created_at at or after. */
  from?: Date;
  /** created_at before. */
  to?: Date;
  status?: PullStatus;
}

/** Confirmed pulls of one UTC day and one token. */
export interface DailyTotal {
  /** YYYY-MM-DD, UTC. */
  day: string;
  token_contract_id: string | null;
  /** Sum of what moved (the transfer event's amount, else what the plan asked), raw units, exact text. */
  amount: string;
  pulls: number;
}

export interface MerchantPullsRepo {
  /** Oldest first by created_at, keyset-paged. */
  list(filter: MerchantPullsFilter, page: PageRequest): Promise<Page<PullRecord>>;
  /** Days without a confirmed pull are absent. */
  dailyTotals(merchantId: string, from: Date, to: Date): Promise<DailyTotal[]>;
}
